import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { identityClient } from '../../test/identity';
import { operatorKey as makeKey, runToolInProcess, runToolProcess, type ToolOutcome } from '../../test/operator-tools';
import { organizationsTool } from './organizations-tool';
import { walletTool } from './wallet-tool';
import { companySsoDomains, operatorAuditEvents, organizationMembers, organizations, users, walletRewards } from '../db/schema';

/**
 * `npm run organizations` and `npm run wallet` beside a running server (PORTAL_URL +
 * OPERATOR_API_KEY): what the admin API does goes through it, under the key's scope and its
 * operator's role; what it does not do is refused without touching anything. The commands run
 * in this process (runToolWith); one of each runs as its own process, as an operator starts it.
 */
let server: TestServer;
const keys: Record<string, string> = {};
let researcherId = '';
let organizationId = '';

const TOOLS = { 'wallet-admin': walletTool, 'organizations-admin': organizationsTool };
const api = (key: string) => ({ PORTAL_URL: server.url, OPERATOR_API_KEY: key });
const tool = (entry: keyof typeof TOOLS, args: string[], key: string) => runToolInProcess(TOOLS[entry], args, api(key));
const toolProcess = (entry: keyof typeof TOOLS, args: string[], key: string) => runToolProcess(entry, args, api(key));
const operatorKey = (name: string, roles: Array<'owner' | 'support' | 'finance'>, scopes: string[]) => makeKey(server, name, roles, scopes);

/** A refusal as the operator reads it: exit 1, the reason, no stack trace, never the key. */
function expectRefused(outcome: ToolOutcome, key: string, says: string): void {
  expect(outcome.code, outcome.stdout + outcome.stderr).toBe(1);
  expect(outcome.stderr).toContain(says);
  expect(outcome.stderr).not.toMatch(/\n\s+at /);
  expect(outcome.stdout + outcome.stderr).not.toContain(key);
}

const audited = () => server.database.db.select({ reason: operatorAuditEvents.reason, action: operatorAuditEvents.action }).from(operatorAuditEvents);
const domainRows = () => server.database.db.select({ domain: companySsoDomains.domain, verifiedAt: companySsoDomains.verifiedAt }).from(companySsoDomains);
const rewardRows = () => server.database.db.select({ id: walletRewards.id, heldAt: walletRewards.heldAt }).from(walletRewards);

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  keys.organizations = await operatorKey('support', ['support'], ['admin:organizations']);
  keys.finance = await operatorKey('finance', ['finance'], ['admin:wallet']);
  // An owner (any role allowed) whose key lacks the scopes these commands need.
  keys.peopleOnly = await operatorKey('owner', ['owner'], ['admin:people']);

  const db = server.database.db;
  organizationId = randomUUID();
  await db.insert(organizations).values({ id: organizationId, name: 'Acme Widgets', adminEmail: 'boss@acme.example' });
  // Another organization whose name contains the first's: the command names one whole name.
  await db.insert(organizations).values({ id: randomUUID(), name: 'Acme Widgets Asia', adminEmail: 'boss@acme-asia.example' });
  await db.insert(organizationMembers).values([
    { organizationId, email: 'boss@acme.example', role: 'owner' },
    { organizationId, email: 'dev@acme.example', role: 'member' },
  ]);
  await db.insert(companySsoDomains).values({ organizationId, domain: 'acme.example', dnsToken: randomBytes(16).toString('hex') });

  const researcher = await identityClient(server.app, server.database).registeredUser('researcher@example.com');
  expect(researcher).toBeTruthy();
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'researcher@example.com'));
  researcherId = row!.id;
  await db.insert(walletRewards).values({ clientId: 'bugs', externalId: 'report-1', requestDigest: 'x', userId: researcherId, programAlias: 'acme', currency: 'USD', amountMinor: 2500 });
}, 120_000);
afterAll(() => server?.close());

describe('npm run organizations through the admin API', () => {
  it('shows an organization named by its whole name or a member email, with its domains', async () => {
    const byName = await toolProcess('organizations-admin', ['sso', 'acme widgets'], keys.organizations!);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.stdout).toContain('Acme Widgets has no SSO connection');
    expect(byName.stdout).toContain('domains: acme.example (not verified)');
    const byMember = await tool('organizations-admin', ['sso', 'DEV@acme.example'], keys.organizations!);
    expect(byMember.stdout).toBe(byName.stdout);
    expectRefused(await tool('organizations-admin', ['sso', 'Acme'], keys.organizations!), keys.organizations!, 'no organization is named Acme');
    expectRefused(await tool('organizations-admin', ['sso', 'nobody@acme.example'], keys.organizations!), keys.organizations!, 'nobody@acme.example is not in any organization');
  }, 120_000);

  it('is refused for a key without admin:organizations (403 admin.scope_missing, said in words)', async () => {
    const refused = await tool('organizations-admin', ['sso', 'Acme Widgets'], keys.peopleOnly!);
    expectRefused(refused, keys.peopleOnly!, '403 admin.scope_missing');
    expect(refused.stderr).toContain('lacks this scope');
    expect(refused.stdout).toBe('');
  }, 120_000);

  it('refuses every change the admin API cannot make, naming where it can be made, and changes nothing', async () => {
    const before = { audit: await audited(), domains: await domainRows(), organizations: await server.database.db.select().from(organizations) };
    for (const [args, says] of [
      [['create', 'Beta Corp', '--admin', 'beta@beta.example'], 'npm run organizations -- create has no admin API endpoint'],
      [['add-member', 'Acme Widgets', 'new@acme.example'], 'npm run organizations -- add-member has no admin API endpoint'],
      [['role', 'Acme Widgets', 'dev@acme.example', 'admin'], 'npm run organizations -- role has no admin API endpoint'],
      [['sso', 'Acme Widgets', '--require-sso', 'on'], 'npm run organizations -- sso --require-sso has no admin API endpoint'],
      [['domain', 'add', 'Acme Widgets', 'acme2.example'], 'npm run organizations -- domain has no admin API endpoint'],
      // The API's verification is an operator's word (with a recent sign-in), not the DNS lookup this command makes.
      [['domain', 'verify', 'Acme Widgets', 'acme.example'], "verify the domain by hand on the console's Organizations page"],
    ] as const) {
      const refused = await tool('organizations-admin', [...args], keys.organizations!);
      expectRefused(refused, keys.organizations!, says);
      expect(refused.stderr).toContain('unset PORTAL_URL and OPERATOR_API_KEY');
    }
    expect(await audited()).toEqual(before.audit);
    expect(await domainRows()).toEqual(before.domains);
    expect(await server.database.db.select().from(organizations)).toEqual(before.organizations);
    const [dev] = await server.database.db.select({ role: organizationMembers.role }).from(organizationMembers).where(eq(organizationMembers.email, 'dev@acme.example'));
    expect(dev?.role).toBe('member');
  }, 240_000);
});

describe('npm run wallet through the admin API', () => {
  it('reads balances and the payout queue, and holds a payout with the reason in the operator audit log', async () => {
    const balance = await tool('wallet-admin', ['balance', 'system'], keys.finance!);
    expect(balance.code, balance.stderr).toBe(0);
    const unknown = await tool('wallet-admin', ['balance', 'ghost@example.com'], keys.finance!);
    expectRefused(unknown, keys.finance!, 'admin.account_not_found');

    const queue = await tool('wallet-admin', ['payouts'], keys.finance!);
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.stdout).toContain(`${researcherId}\tresearcher@example.com\tUSD\t2500\t1 reward(s)\tnot held`);

    const held = await tool('wallet-admin', ['payouts', 'hold', researcherId, 'usd', '--reason', 'Duplicate report under review'], keys.finance!);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).toContain('1 held');
    expect((await rewardRows())[0]?.heldAt).not.toBeNull();
    expect(await audited()).toContainEqual({ reason: 'Duplicate report under review', action: 'POST /admin/wallet/payouts/{user_id}/{currency}/hold' });

    // Paying needs a person's recent proof of identity: the console's, never a key's.
    expectRefused(await tool('wallet-admin', ['payouts', 'approve', researcherId, 'USD'], keys.finance!), keys.finance!, "approve it on the console's Wallet page");
  }, 240_000);

  it('is refused for a key without admin:wallet, and writes nothing', async () => {
    await server.database.db.update(walletRewards).set({ heldAt: null });
    const before = await audited();
    const refused = await tool('wallet-admin', ['payouts', 'hold', researcherId, 'USD', '--reason', 'Should not happen'], keys.peopleOnly!);
    expectRefused(refused, keys.peopleOnly!, '403 admin.scope_missing');
    expect(refused.stderr).toContain('lacks this scope');
    expect((await rewardRows())[0]?.heldAt).toBeNull();
    expect(await audited()).toEqual(before);
    expectRefused(await tool('wallet-admin', ['balance', 'researcher@example.com'], keys.peopleOnly!), keys.peopleOnly!, '403 admin.scope_missing');
  }, 120_000);

  it('refuses adjust and resend (no endpoint), and a malformed hold before calling', async () => {
    const adjust = await toolProcess('wallet-admin', ['adjust', 'researcher@example.com', 'USD', '5', '--note', 'Goodwill'], keys.finance!);
    expectRefused(adjust, keys.finance!, 'npm run wallet -- adjust has no admin API endpoint');
    const resend = await tool('wallet-admin', ['resend', randomUUID()], keys.finance!);
    expectRefused(resend, keys.finance!, 'npm run wallet -- resend has no admin API endpoint');
    const malformed = await tool('wallet-admin', ['payouts', 'hold', 'not-an-id', 'USD'], keys.finance!);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('payouts hold takes <user id> <USD|VND|WHC>');
  }, 120_000);
});
