/** The operator audit log: who did what to whom, why, when and from where. */
export function AuditPage() {
  return null;
}
