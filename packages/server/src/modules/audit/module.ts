import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { MembershipChangeHook } from '../organizations';
import type { UserService } from '../users';
import { auditRoutes } from './routes';
import { createAuditService, recordMembershipChange, type AuditService } from './service';

export interface AuditMade {
  audit: AuditService;
  /** Every membership and role change of an organization goes to its audit log (the organizations module calls it). */
  onMembershipChanged: MembershipChangeHook;
}

export const auditModule = defineModule({
  name: 'audit',
  create: ({ platform: { db, clock }, users }: { platform: Platform; users: UserService }): AuditMade => ({
    audit: createAuditService({ db, clock }),
    onMembershipChanged: async (change) => recordMembershipChange({ db, clock }, change, change.actorUserId ? (await users.findById(change.actorUserId))?.email : null),
  }),
  routes: async (api, { audit }, { platform }) => {
    await api.register(auditRoutes(audit, platform.clock));
  },
});
