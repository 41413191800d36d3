import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { companySsoTestServer } from '../../../test/company-sso';
import { companySsoIdentities, organizationMembers, users } from '../../db/schema';

/**
 * The first company-SSO sign-in of a new person makes their account, its link to the IdP's
 * subject and their membership. A failure anywhere in it must not leave the account linked
 * without the membership: "linked, not a member" is how a person removed from the organization
 * reads, refused for good. The failures are real ones: the database refuses a statement (a
 * trigger), as a crash, a lost connection or a full disk would.
 */
const h = companySsoTestServer({ clientId: 'first-portal', clientSecret: 'first-portal-secret-0123456789abcdef', addresses: '127.13' });

beforeAll(() => h.organizationWithIdp('First Inc', 'first-inc', 'first.test'));

const db = () => h.server.database.db;
const dropTriggers: string[] = [];
afterEach(async () => {
  for (const name of dropTriggers.splice(0)) await db().execute(sql.raw(`drop function ${name}() cascade`));
});

/** From now on (until the test ends) the database refuses inserts into `table` whose row matches `condition` (SQL over `new`). */
async function refuseInserts(table: 'sessions' | 'organization_members', condition: string): Promise<() => Promise<void>> {
  const name = `refuse_${table}_${dropTriggers.length + 1}`;
  await db().execute(sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin if ${condition} then raise exception 'refused by the test'; end if; return new; end $$`));
  await db().execute(sql.raw(`create trigger ${name} before insert on ${table} for each row execute function ${name}()`));
  dropTriggers.push(name);
  return async () => {
    dropTriggers.splice(dropTriggers.indexOf(name), 1);
    await db().execute(sql.raw(`drop function ${name}() cascade`));
  };
}

const rowsOf = async (email: string, subject: string) => ({
  users: await db().select({ id: users.id }).from(users).where(eq(users.email, email)),
  links: await db().select({ userId: companySsoIdentities.userId }).from(companySsoIdentities).where(eq(companySsoIdentities.subject, subject)),
  members: await db().select({ userId: organizationMembers.userId, role: organizationMembers.role }).from(organizationMembers).where(eq(organizationMembers.email, email)),
});

async function expectSignedInMember(email: string, subject: string) {
  const again = await h.oidcSignIn({ sub: subject, email, name: 'New Person' }, 'first-inc');
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json().token).toBeTruthy();
  const rows = await rowsOf(email, subject);
  expect(rows.users).toHaveLength(1);
  expect(rows.links).toEqual([{ userId: rows.users[0]!.id }]);
  expect(rows.members).toEqual([{ userId: rows.users[0]!.id, role: 'member' }]);
}

describe('a first company-SSO sign-in that fails part-way', () => {
  it('leaves no account linked without its membership when the sign-in fails after the account is made: the next sign-in signs the member in', async () => {
    const email = 'session-fails@first.test';
    const subject = 'first-session-fails';
    const allow = await refuseInserts('sessions', `new.user_id in (select id from users where email = '${email}')`);
    const failed = await h.oidcSignIn({ sub: subject, email, name: 'New Person' }, 'first-inc');
    expect(failed.statusCode, failed.body).toBe(500);
    expect(failed.json().token).toBeUndefined();
    await allow();
    await expectSignedInMember(email, subject);
  });

  it('makes nothing when the membership cannot be written: the next sign-in makes the account, its link and the membership', async () => {
    const email = 'member-fails@first.test';
    const subject = 'first-member-fails';
    const allow = await refuseInserts('organization_members', `new.email = '${email}'`);
    const failed = await h.oidcSignIn({ sub: subject, email, name: 'New Person' }, 'first-inc');
    expect(failed.statusCode, failed.body).toBe(500);
    expect(failed.json().token).toBeUndefined();
    expect(await rowsOf(email, subject)).toEqual({ users: [], links: [], members: [] });
    await allow();
    await expectSignedInMember(email, subject);
  });
});
