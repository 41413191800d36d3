import { and, eq, isNull, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import { organizationMembers } from '../../db/schema';

/**
 * The membership rows of an account: every row that names it by id, and by email only a row
 * that names no account yet (made before the account existed). A row follows the account it
 * names, whatever address it was left under; a row naming another account never counts for
 * this one, though this one now holds the address. Emails are compared as stored: both tables
 * keep them trimmed and lower-cased. Every question of whose a membership is asks this rule:
 * who administers, whom SSO binds, whose sessions its requirement ends.
 */
export const rowsOfAccount = (userId: SQLWrapper | string, email: SQLWrapper | string): SQL =>
  or(eq(organizationMembers.userId, userId), and(isNull(organizationMembers.userId), eq(organizationMembers.email, email)))!;
