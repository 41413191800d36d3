/**
 * Whether PostgreSQL refused a statement because a unique index already holds the value (SQLSTATE
 * 23505), as pg reports it or as drizzle wraps it (its `cause`): the index decides a race, and
 * the caller answers "taken" instead of failing.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}
