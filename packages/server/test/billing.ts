import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { createBillingService, type BillingDependencies, type BillingService } from '../src/modules/billing';
import { createOrganizationService } from '../src/modules/organizations';
import type { Clock } from '../src/platform/clock';
import { createMailer } from '../src/platform/mail';
import { createSandboxProcessor, SANDBOX_TEST_CARDS } from '../src/platform/payments';
import type { identityClient } from './identity';
import type { TestServer } from './harness';

export const TEST_LICENSE_SECRET = 'appsumo-test-secret-0123456789';

/** Another billing node on a test server's database (the sandbox processor, the dev outbox unless a mailer is given). */
export function billingNode(server: TestServer, clock: Clock, overrides: Partial<BillingDependencies> = {}): BillingService {
  const db = server.database.db;
  return createBillingService({
    config: server.config,
    db,
    clock,
    mailer: createMailer({ from: 'test@localhost', database: server.database }),
    log: { info: () => {}, error: () => {} },
    processor: createSandboxProcessor(db, clock),
    organizations: createOrganizationService({ db, clock }),
    licenseSecret: TEST_LICENSE_SECRET,
    ...overrides,
  });
}

/** A registered person with a sandbox card (the success number) as their default; answers their id and session. */
export async function personWithCard(server: TestServer, client: ReturnType<typeof identityClient>, email: string): Promise<{ id: string; session: string }> {
  const session = await client.registeredUser(email);
  const token = (await server.app.inject({ method: 'POST', url: '/v3/billing/sandbox/tokens', payload: { number: SANDBOX_TEST_CARDS.success, exp_month: 12, exp_year: 2030, cvc: '123' } })).json().token as string;
  await server.app.inject({ method: 'POST', url: '/v3/sso/me/cards', headers: { authorization: `Bearer ${session}` }, payload: { token, cardholder: 'Test Person', city: 'Hanoi', state: 'HN', zip: '100000' } });
  const [user] = await server.database.db.select().from(users).where(eq(users.email, email));
  return { id: user!.id, session };
}
