import { isLanguage, type User } from '@portal/contracts';
import type { users } from '../../db/schema';

/** The user as the API shows it: never the password hash or internal timestamps. */
export function toUserDto(row: typeof users.$inferSelect): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    full_name: row.fullName,
    language: isLanguage(row.language) ? row.language : 'en',
    customer_language: isLanguage(row.customerLanguage) ? row.customerLanguage : 'en',
    is_activated: row.activatedAt !== null,
    has_password: row.passwordHash !== null,
    created_at: row.createdAt.toISOString(),
  };
}
