import { SSO_IDENTIFIER_PATTERN } from '@portal/contracts';

/** An SSO identifier as stored (lower-cased), or null when it does not have the form. */
export function normalizeIdentifier(value: string | undefined): string | null {
  const identifier = value?.trim().toLowerCase() ?? '';
  return SSO_IDENTIFIER_PATTERN.test(identifier) && identifier.length <= 63 ? identifier : null;
}
