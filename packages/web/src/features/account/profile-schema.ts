import { z } from 'zod';
import { ALPHANUMERIC_PATTERN, isLanguage, type Language, type UpdateMeRequest } from '@portal/contracts';
import { messageKey } from '../../components/dialogs/form-errors';
import type { SessionUser } from '../../lib/session';

/**
 * The profile form's rules: those of contracts updateMeRequestSchema (the spec's validation rules: phone
 * numeric only; username, company, address, organization alphanumeric only; 'This field
 * may not be blank.' for the name), with messages as i18n keys so they show in the
 * visitor's language. profile-schema.test.ts holds both to the same answers.
 */
export const PROFILE_LIMITS = { full_name: 100, username: 50, phone: 20, text: 200 } as const;

const tooLong = (max: number) => messageKey('account.validation.tooLong', { max });
const alphanumeric = (key: 'company' | 'organization' | 'address') =>
  z
    .string()
    .trim()
    .regex(ALPHANUMERIC_PATTERN, `account.validation.${key}`)
    .max(PROFILE_LIMITS.text, tooLong(PROFILE_LIMITS.text));

export const profileSchema = z.object({
  full_name: z.string().trim().min(1, 'validation.blank').max(PROFILE_LIMITS.full_name, tooLong(PROFILE_LIMITS.full_name)),
  username: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]*$/, 'account.validation.username')
    .max(PROFILE_LIMITS.username, tooLong(PROFILE_LIMITS.username)),
  phone: z
    .string()
    .trim()
    .regex(/^\d*$/, 'account.validation.phone')
    .max(PROFILE_LIMITS.phone, tooLong(PROFILE_LIMITS.phone)),
  company: alphanumeric('company'),
  organization: alphanumeric('organization'),
  address: alphanumeric('address'),
  /** ISO 3166-1 alpha-2, or '' for none. */
  country: z.string().regex(/^([A-Z]{2})?$/, 'account.validation.country'),
});

export type ProfileValues = z.input<typeof profileSchema>;
export const profileFields = Object.keys(profileSchema.shape) as (keyof ProfileValues)[];

/** The form's starting values: the user's, with '' for what is unset. */
export function profileValues(user: SessionUser | null | undefined): ProfileValues {
  return {
    full_name: user?.full_name ?? '',
    username: user?.username ?? '',
    phone: user?.phone ?? '',
    company: user?.company ?? '',
    organization: user?.organization ?? '',
    address: user?.address ?? '',
    country: user?.country ?? '',
  };
}

/** PUT /sso/me's body: the whole user object, the form's values (empty → null), and both languages. */
export function profileRequest(user: SessionUser, values: ProfileValues, fallbackLanguage: Language): SessionUser & UpdateMeRequest {
  const language = isLanguage(user.language) ? user.language : fallbackLanguage;
  const customerLanguage = isLanguage(user.customer_language) ? user.customer_language : language;
  const orNull = (value: string) => value.trim() || null;
  return {
    ...user,
    full_name: values.full_name.trim(),
    username: orNull(values.username),
    phone: orNull(values.phone),
    company: orNull(values.company),
    organization: orNull(values.organization),
    address: orNull(values.address),
    country: values.country || null,
    language,
    customer_language: customerLanguage,
  };
}
