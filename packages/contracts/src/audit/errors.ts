/** The organization audit log's refusals. */
export const auditErrors = {
  'audit.not_admin': { status: 403, message: 'Only an owner or admin of this organization can read its audit log' },
  'audit.action_invalid': { status: 400, message: 'Unknown action: {action}' },
  'audit.date_invalid': { status: 400, message: 'Enter a date as YYYY-MM-DD or an ISO 8601 time' },
  'audit.date_range_invalid': { status: 400, message: 'Choose a start date before the end date' },
  'audit.email_invalid': { status: 400, message: 'Enter at most 254 characters of an email address' },
  'audit.cursor_invalid': { status: 400, message: 'This page link is not valid: start again from the first page' },
} as const;
