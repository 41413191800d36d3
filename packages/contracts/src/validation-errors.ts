import { messages, profileMessages } from './auth/schemas';

/**
 * Field codes of the request schemas' messages: a field that fails validation is answered
 * with its code and the message as it reads in English; the web app shows its own words for
 * the code, which is also its i18n key: `validation.<key>` for the shared form messages
 * (auth/schemas.ts `messages`), `account.validation.<key>` for the profile's.
 */
export type ValidationCode = `validation.${keyof typeof messages}` | `account.validation.${keyof typeof profileMessages}`;

const codeByMessage = new Map<string, ValidationCode>([
  ...Object.entries(messages).map(([key, message]) => [message, `validation.${key}`] as [string, ValidationCode]),
  ...Object.entries(profileMessages).map(([key, message]) => [message, `account.validation.${key}`] as [string, ValidationCode]),
]);

/** The code of a schema message; undefined for zod's own messages, which have none. */
export function validationCodeOf(message: string): ValidationCode | undefined {
  return codeByMessage.get(message);
}
