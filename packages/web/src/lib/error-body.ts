import type { ErrorBody } from '@portal/contracts';

/**
 * The `/v3` error body `{ code, message, details? }` (contracts `errorBodySchema`), checked
 * by hand: parsing it with the zod schema would put zod (~26 KB gzipped) on the sign-in
 * page's critical path for three fields. error-body.test.ts holds the two to the same answers.
 */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (!value || typeof value !== 'object') return false;
  const { code, message, details } = value as Record<string, unknown>;
  return (
    typeof code === 'string' &&
    typeof message === 'string' &&
    (details === undefined || (typeof details === 'object' && details !== null && !Array.isArray(details)))
  );
}
