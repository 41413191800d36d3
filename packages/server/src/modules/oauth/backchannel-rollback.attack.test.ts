import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { adminCall, operator } from '../../../test/operators';
import { activeForProduct } from '../../../test/product-token-endpoint';
import { relyingPartyTestServer } from '../../../test/relying-party';

/**
 * An operator's action ends a person's sessions in one transaction with its audit row. When the
 * audit row fails, nothing ended: the sessions and the product's tokens stand, and the products
 * were not told back-channel that the person signed out (a logout token sent from inside the
 * transaction had already gone before it rolled back).
 */
const rp = relyingPartyTestServer({ backchannelLogout: true });

describe("an operator's end-sessions that rolls back", () => {
  it('tells no product the person signed out', async () => {
    const { token, tokens, email } = await rp.signedInToProduct();
    const { db } = rp.server.database;
    const [person] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const owner = await operator(rp.server, rp.identity, 'rollback-ender@example.com', ['owner']);
    const before = rp.logoutTokens.length;
    await db.execute(sql.raw(`create function failing_operator_audit() returns trigger language plpgsql as $$ begin raise exception 'audit store unavailable'; end $$`));
    await db.execute(sql.raw(`create trigger failing_operator_audit before insert on operator_audit_events for each row execute function failing_operator_audit()`));
    try {
      const ending = await adminCall(rp.server, owner.session, 'POST', `/v3/admin/people/${person!.id}/end-sessions`, { reason: 'Lost laptop, reported by phone' });
      expect(ending.statusCode, ending.body).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger failing_operator_audit on operator_audit_events'));
    }
    // Rolled back: the session and the product's token stand.
    expect((await rp.server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect(await activeForProduct(rp.server, tokens.access_token!)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(rp.logoutTokens.length, 'logout tokens sent for sessions that did not end').toBe(before);
  });
});
