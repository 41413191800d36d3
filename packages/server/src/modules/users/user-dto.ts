import { avatarEndpoints, endpointPath, isLanguage, type User } from '@portal/contracts';
import type { UserRow } from './queries';

/** The user as the API shows it: never the password hash or internal timestamps. */
export function toUserDto(row: UserRow): User {
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
    phone: row.phone,
    company: row.company,
    organization: row.organization,
    address: row.address,
    country: row.country,
    avatar_url: row.avatarVersion > 0 ? `/v3${endpointPath(avatarEndpoints.picture, { id: row.id })}?v=${row.avatarVersion}` : null,
    recovery_email: row.recoveryEmail,
    recovery_email_verified: row.recoveryEmailVerifiedAt !== null,
    education_email: row.educationEmailVerifiedAt ? row.educationEmail : null,
    two_factor_method: row.twoFactorMethod === 'totp' || row.twoFactorMethod === 'email' ? row.twoFactorMethod : null,
    deletion_due_at: row.deletionDueAt?.toISOString() ?? null,
  };
}
