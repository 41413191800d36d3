import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { billingNode, personWithCard } from '../../../test/billing';
import { startTestServer, type TestServer } from '../../../test/harness';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer';
import { billingReceipts } from '../../db/schema';
import { createMailer, type Mailer } from '../../platform/mail';
import { RECEIPT_LEASE_MS, RECEIPT_RETRY_MS } from './receipts';
import type { BillingService } from './service';

const clock = manualClock(new Date('2026-04-01T10:00:00Z'));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let peer: SmtpPeer;
let keySeq = 0;
const key = () => `receipt-key-${++keySeq}`;

/** A billing node on the test's database with its own mailer; it never sends right after a payment, so only its worker runs do. */
function node(mailer: Mailer): BillingService {
  return billingNode(server, clock, { mailer, sendReceiptsNow: false });
}
const smtp = (url: string) => createMailer({ from: 'billing@localhost', smtpUrl: url, database: server.database });

/** A person with a sandbox card who bought paid subscriptions (one per product, each a paid order with a receipt due). */
async function buyer(email: string, billing: BillingService, products: string[]): Promise<string[]> {
  const user = await personWithCard(server, client, email);
  const numbers: string[] = [];
  for (const plan of products) {
    const { order } = await billing.subscribe(user.id, { plan, months: 1, currency: 'USD', idempotency_key: key() });
    expect(order?.status).toBe('paid');
    numbers.push(order!.number);
  }
  return numbers;
}
const receiptsFor = (number: string) => peer.messages.filter((mail) => mail.raw.includes(`invoice-${number}.pdf`));
const pending = async () => (await server.database.db.select().from(billingReceipts).where(eq(billingReceipts.status, 'pending'))).length;

/** A port nothing listens on: SMTP "down" (connection refused). */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  peer = await startSmtpPeer();
  server = await startTestServer({ clock, env: { BILLING_JOB_INTERVAL_SECONDS: '0', BILLING_RECEIPT_INTERVAL_SECONDS: '0', APPSUMO_LICENSE_SECRET: 'appsumo-test-secret-0123456789' } });
  client = identityClient(server.app, server.database);
});
afterAll(async () => {
  await server.close();
  await peer.close();
});

describe('the receipt queue', () => {
  it('keeps a paid order\'s receipt in the database: a worker that died while sending leaves it to another, which sends it once', async () => {
    const billing = node(smtp(peer.url));
    const [number] = await buyer('restart@example.com', billing, ['secret.pro']);
    expect(await pending()).toBe(1);

    // A worker that claims the receipt and never finishes (the process died mid-send).
    const stuck: Mailer = { mode: 'smtp', send: () => new Promise(() => {}), settled: async () => {}, close: async () => {} };
    void node(stuck).runReceipts();
    await expect.poll(async () => (await server.database.db.select().from(billingReceipts))[0]?.claimId ?? null).not.toBeNull();

    // A restarted worker: the claim holds until its lease ends, then the receipt is sent, once.
    const restarted = node(smtp(peer.url));
    expect(await restarted.runReceipts()).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock.advance(RECEIPT_LEASE_MS + 1000);
    expect(await restarted.runReceipts()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [mail] = receiptsFor(number!);
    expect(mail).toMatchObject({ to: ['restart@example.com'], subject: expect.stringContaining('Receipt for') });
    expect(mail!.raw).toContain('application/pdf');
    expect(await restarted.runReceipts()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(receiptsFor(number!)).toHaveLength(1);
    expect(await pending()).toBe(0);
  });

  it('two workers at once send each receipt once', async () => {
    const billing = node(smtp(peer.url));
    const numbers = await buyer('parallel@example.com', billing, ['secret.pro', 'endpoint.standard', 'vulnscan.standard']);
    const second = await buyer('parallel2@example.com', billing, ['secret.pro', 'endpoint.standard', 'vulnscan.standard']);
    const all = [...numbers, ...second];
    const runs = await Promise.all([node(smtp(peer.url)).runReceipts({ batchSize: 2 }), node(smtp(peer.url)).runReceipts({ batchSize: 2 })]);
    expect(runs[0]!.sent + runs[1]!.sent).toBe(all.length);
    for (const number of all) expect(receiptsFor(number), number).toHaveLength(1);
    expect(await pending()).toBe(0);
  });

  it('retries a receipt SMTP refused, with backoff, until it goes out', async () => {
    const billing = node(smtp(peer.url));
    const [number] = await buyer('retry@example.com', billing, ['secret.pro']);
    const down = node(smtp(`smtp://127.0.0.1:${await closedPort()}`));
    expect(await down.runReceipts()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const [row] = await server.database.db.select().from(billingReceipts).where(sql`${billingReceipts.lastError} is not null and ${billingReceipts.status} = 'pending'`);
    expect(row).toMatchObject({ attempts: 1, claimId: null });
    expect(row!.nextAttemptAt.getTime()).toBe(clock.now().getTime() + RECEIPT_RETRY_MS[0]);

    // Not before the backoff is over; then the next try (SMTP back up) sends it.
    const up = node(smtp(peer.url));
    expect(await up.runReceipts()).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock.advance(RECEIPT_RETRY_MS[0]);
    expect(await up.runReceipts()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(receiptsFor(number!)).toHaveLength(1);
  });

  it('gives a receipt up after the last retry (status failed), and sends nothing twice', async () => {
    const billing = node(smtp(peer.url));
    await buyer('giveup@example.com', billing, ['secret.pro']);
    const down = node(smtp(`smtp://127.0.0.1:${await closedPort()}`));
    for (const wait of RECEIPT_RETRY_MS) {
      expect((await down.runReceipts()).retried).toBe(1);
      clock.advance(wait);
    }
    expect(await down.runReceipts()).toEqual({ sent: 0, retried: 0, failed: 1 });
    const [row] = await server.database.db.select().from(billingReceipts).where(eq(billingReceipts.status, 'failed'));
    expect(row!.attempts).toBe(RECEIPT_RETRY_MS.length + 1);
    expect(await node(smtp(peer.url)).runReceipts()).toEqual({ sent: 0, retried: 0, failed: 0 });
  });
});
