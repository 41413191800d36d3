import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { deliverNotificationsLate } from '../../../test/late-notifications';
import { adminCall, operator } from '../../../test/operators';
import { activeForProduct } from '../../../test/product-token-endpoint';
import { relyingPartyTestServer } from '../../../test/relying-party';
import { slowOperatorAudit, untilOperatorAuditWriting } from '../../../test/slow-operator-audit';
import { OAUTH_CHANNEL } from './change-feed';

/**
 * An operator's action commits with its audit row (operators' `recorded`), so what it ends is
 * ended only at that commit. The tokens this node keeps (token-cache.ts) are forgotten after it:
 * forgotten before, a read in between (of a token still valid, the change not yet committed)
 * was kept again and answered after the action had answered, until the database's notice came.
 * The notices arrive late here, and the action's audit row takes a second to write.
 */
deliverNotificationsLate(OAUTH_CHANNEL, 3000);
const rp = relyingPartyTestServer();

describe("an operator ends a person's sessions while this node reads their product's access token", () => {
  it('is refused once the action has answered, before any notice arrives', async () => {
    const { tokens, email } = await rp.signedInToProduct();
    const { db } = rp.server.database;
    const [person] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const owner = await operator(rp.server, rp.identity, 'session-ender@example.com', ['owner']);
    await slowOperatorAudit(rp.server.database);

    const ending = adminCall(rp.server, owner.session, 'POST', `/v3/admin/people/${person!.id}/end-sessions`, { reason: 'Lost laptop, reported by phone' });
    await untilOperatorAuditWriting(rp.server.database);
    // Still valid: the ending is not committed. On PostgreSQL this read is answered and kept now.
    await activeForProduct(rp.server, tokens.access_token!);
    const ended = await ending;
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await activeForProduct(rp.server, tokens.access_token!)).toBe(false);
  });
});
