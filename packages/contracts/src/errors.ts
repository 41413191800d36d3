import { z } from 'zod';

import { accountErrors } from './account/errors';
import { apiKeyErrors } from './api-keys/errors';
import { authErrors } from './auth/errors';
import { billingErrors } from './billing/errors';
import { walletErrors } from './wallet/errors';
import { auditErrors } from './audit/errors';
import { payoutErrors } from './wallet/payout-errors';
import { commonErrors } from './common-errors';
import { notificationErrors } from './notifications/errors';
import { oauthErrors } from './oauth/errors';
import { organizationErrors } from './organizations/errors';
import { moderatorErrors } from './moderators/errors';
import { socialErrors } from './federation/errors';
import { companySsoErrors } from './company-sso/errors';
import { egressErrors } from './egress-errors';
import { adminErrors } from './operators/errors';
import type { ValidationCode } from './validation-errors';

export { validationCodeOf, type ValidationCode } from './validation-errors';

/**
 * Every error the `/v3` API can answer, each module's declared in its own file
 * (`<capability>/errors.ts`) and combined here into one lookup. The server throws these codes;
 * the web app maps a code to translated text (i18n key `errors.<code>`), falling back to
 * `message`. Numeric codes are the spec's; the rest are dotted names. Codes are
 * wire format: never rename one.
 */
export const errorCatalogue = {
  ...commonErrors,
  ...authErrors,
  ...accountErrors,
  ...apiKeyErrors,
  ...notificationErrors,
  ...billingErrors,
  ...walletErrors,
  ...payoutErrors,
  ...oauthErrors,
  ...socialErrors,
  ...organizationErrors,
  ...moderatorErrors,
  ...auditErrors,
  ...companySsoErrors,
  ...egressErrors,
  ...adminErrors,
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The one error body of `/v3`. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The code of a field's error: a catalogue code, or a request schema's `validation.<key>`. */
export type FieldErrorCode = ErrorCode | ValidationCode;

/**
 * One field's error in `details.fields` of a 400: a code the web app words in the visitor's
 * language, the English message for API users, and the message's parameters.
 */
export interface FieldError {
  code: FieldErrorCode;
  message: string;
  params?: Record<string, string | number>;
}

/** Fill `{name}` placeholders of a catalogue message. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
