import { eq } from 'drizzle-orm';
import { oidcModels, users } from '../src/db/schema';
import { createDeliveryWorker } from '../src/modules/webhooks';
import type { Clock } from '../src/platform/clock';
import { createDataProtection, parseDataKey } from '../src/platform/data-protection';
import { TEST_DATA_KEY, type TestServer } from './harness';
import type { identityClient } from './identity';

/** The data key's protection the test servers seal webhook secrets with (TEST_DATA_KEY). */
export const webhookSecrets = createDataProtection(parseDataKey(TEST_DATA_KEY)!);

/** A delivery worker on the test server's database that may reach a receiver on loopback. */
export const deliveryWorker = (server: TestServer, clock: Clock) => createDeliveryWorker({ db: server.database.db, clock, secrets: webhookSecrets, egress: { allowLoopback: true } });

/**
 * The people of a webhooks test, by name (`name@example.com`): their sessions and ids, once the
 * file's server and client are up (read through `started`), and the grant rows the provider's
 * adapter stores when one allows an app (what lets an app hear of them, and how much).
 */
export function webhookPeople(started: () => { server: TestServer; client: ReturnType<typeof identityClient> }) {
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  /** Registers the person, with two-step verification by email. */
  async function person(name: string): Promise<void> {
    const { server, client } = started();
    const email = `${name}@example.com`;
    tokens[name] = await client.registeredUser(email);
    await server.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
    const [row] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    ids[name] = row!.id;
  }

  /** The person allowed the app (signed in to it); `id` gives one person two grants for it. */
  async function grant(name: string, clientId: string, expiresAt = new Date(Date.now() + 365 * 86_400_000), scope = 'openid profile email', id = `grant-${name}-${clientId}`): Promise<void> {
    const accountId = ids[name]!;
    await started().server.database.db.insert(oidcModels).values({
      model: 'Grant',
      id,
      payload: { accountId, clientId, kind: 'Grant', jti: id, openid: { scope }, iat: Math.floor(Date.now() / 1000), exp: Math.floor(expiresAt.getTime() / 1000) },
      accountId,
      clientId,
      expiresAt,
    });
  }

  return { tokens, ids, person, grant };
}
