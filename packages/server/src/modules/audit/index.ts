/**
 * The audit module: each organization's append-only audit log. Other modules call
 * `record` (membership and role changes) and `recordMemberEvent` (a member's sign-ins and
 * factor changes: the sign-in pipeline and the second-factor notices call it); admins read it
 * through `auditRoutes`.
 */
export { createAuditService, record, recordMemberEvent, recordMembershipChange, type MembershipChangeReport, type AuditDependencies, type DatabaseTransaction, type AuditEntry, type AuditHookDependencies, type AuditService, type MemberEventAction } from './service';
export { auditRoutes } from './routes';
export { auditModule, type AuditMade } from './module';
