import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** A person company SSO binds from `since`: when they joined an organization that requires it, or it began to. */
export interface BoundSince {
  userId: string;
  since: Date;
}

/** Whether a session's methods (its `amr`) say company SSO signed it in (company-sso/sign-in.ts records `sso`). */
export const signedInThroughSso = (amr: readonly string[] | null | undefined): boolean => amr?.includes('sso') ?? false;

/**
 * What counts as vouched for by the organization's IdP: made on a sign-in through company SSO
 * after the person joined. An SSO sign-in from before vouches for nothing here: another
 * organization's IdP may have made it. The one rule behind the sweep of sessions, the sweep of
 * API keys (`heldWithoutSsoSince`) and the settings screen's own check (`ssoSinceJoining`).
 */
export const ssoSinceJoining = (made: { viaSso: boolean; createdAt: Date }, since: Date): boolean => made.viaSso && made.createdAt >= since;

/**
 * SQL that holds for a row (a session, a key) of one of `people` that is not vouched for
 * (`ssoSinceJoining`, written for the database): `row.viaSso` says whether an SSO sign-in made
 * it. The people travel as two arrays, one parameter each, whatever their number.
 */
export function heldWithoutSsoSince(people: readonly BoundSince[], row: { userId: SQLWrapper; viaSso: SQLWrapper; createdAt: SQLWrapper }): SQL {
  const userIds = sql.param(people.map((person) => person.userId));
  const since = sql.param(people.map((person) => person.since.toISOString()));
  return sql`exists (select 1 from unnest(${userIds}::uuid[], ${since}::timestamptz[]) as person(user_id, since)
                     where person.user_id = ${row.userId} and not (${row.viaSso} and ${row.createdAt} >= person.since))`;
}
