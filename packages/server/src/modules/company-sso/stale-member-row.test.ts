import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { companySsoTestServer } from '../../../test/company-sso';
import { companySsoIdentities, organizationMembers, users } from '../../db/schema';

/**
 * A membership row that names an account is that account's only. A row left under an address
 * its account gave up (an email change before rows followed their account) does not make the
 * next holder of that address a member: the organization's IdP naming that address meets an
 * existing non-member account, which is linked only when its owner confirms.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const ACTIVATION = /\/confirmation\/([\w-]+)/;

const h = companySsoTestServer({ clientId: 'stale-portal', clientSecret: 'stale-portal-secret-0123456789abcdef', addresses: '127.12' });

beforeAll(() => h.organizationWithIdp('Stale Inc', 'stale-inc', 'stale.test'));

describe("a member row left under an address its account gave up", () => {
  it('does not make the next holder of the address a member the IdP may sign in without their confirmation', async () => {
    const old = 'leaver@stale.test';
    const { db } = h.server.database;
    await h.client.registeredUser(old, PASSWORD);
    const [, leaversLink = ''] = await h.client.mailTo(old, ACTIVATION);
    const [leaver] = await db.select({ id: users.id }).from(users).where(eq(users.email, old));
    await db.insert(organizationMembers).values({ organizationId: (await db.select().from(organizationMembers).where(eq(organizationMembers.email, 'boss@stale.test')))[0]!.organizationId, email: old, userId: leaver!.id, role: 'member' });
    // The leaver's email changed while the row stayed (as every change did before rows followed their account).
    await db.update(users).set({ email: 'leaver@elsewhere.test' }).where(eq(users.id, leaver!.id));

    await h.client.signUp(old, PASSWORD);
    expect((await h.client.activate(old, [leaversLink])).statusCode).toBe(200);
    const answer = await h.oidcSignIn({ sub: 'stale-next-holder', email: old, name: 'Next Holder' }, 'stale-inc');
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json().code).toBe('sso.link_required');
    expect(await db.select().from(companySsoIdentities).where(eq(companySsoIdentities.subject, 'stale-next-holder'))).toEqual([]);
  });
});
