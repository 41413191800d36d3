import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { clientCredentialsToken, startProviderTestServer, type TestServer } from '../../../test/harness';
import { listOutbox } from '../../platform/mail';

/**
 * Website moderators against the real server: a product's back end gets its token
 * by the client-credentials grant (openid-client, real HTTP to our provider) with the
 * `moderators` scope, invites, lists and revokes; the invited person accepts once (parallel
 * requests included) or signs up from the link; the website's notifications reach every
 * accepted moderator and no one else.
 */
const CLIENTS_FILE = fileURLToPath(new URL('../../../test/moderator-clients.json', import.meta.url));
const VULNSCAN_SECRET = 'vulnscan-secret-of-the-tests-0123456789';
const LOCKER_SECRET = 'locker-secret-of-the-tests-0123456789';
const PASSWORD = 'plum-orbit-cactus-917';
const DAY = 24 * 60 * 60 * 1000;

const clock = manualClock(new Date('2026-11-20T12:00:00Z'));
let server: TestServer;
let identity: ReturnType<typeof identityClient>;
let vulnscan: string;
let locker: string;
let people = 0;
let websites = 0;

beforeAll(async () => {
  server = await startProviderTestServer({ clientsFile: CLIENTS_FILE, secrets: { 'test-vulnscan': VULNSCAN_SECRET, 'test-locker': LOCKER_SECRET }, clock });
  identity = identityClient(server.app, server.database);
  vulnscan = await clientCredentialsToken(server, 'test-vulnscan', VULNSCAN_SECRET, 'moderators');
  locker = await clientCredentialsToken(server, 'test-locker', LOCKER_SECRET, 'moderators');
});
afterAll(() => server.close());

type Method = 'GET' | 'POST' | 'DELETE';
const inject = (method: Method, url: string, token?: string, payload?: object) => server.app.inject({ method, url: `/v3${url}`, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
const site = () => `site-${++websites}`;
const invite = (website: string, email: string, token = vulnscan, extra: object = {}) => inject('POST', `/products/websites/${website}/moderators`, token, { email, website_name: `${website}.example.com`, ...extra });
const moderatorsOf = async (website: string, token = vulnscan) => (await inject('GET', `/products/websites/${website}/moderators`, token)).json().items as Array<{ id: string; email: string; status: string; user_id: string | null }>;

/** A signed-up, activated, signed-in person. */
async function person(): Promise<{ email: string; token: string; id: string }> {
  const email = `moderator${++people}-${Date.now()}@example.com`;
  const token = await identity.registeredUser(email, PASSWORD);
  const me = await inject('GET', '/sso/me', token);
  return { email, token, id: me.json().id as string };
}

/** The link of the newest invitation mail to an email (the dev outbox: the mail as sent). */
async function invitationLink(email: string, exclude: string[] = []): Promise<{ path: string; token: string; subject: string; text: string }> {
  for (let tries = 0; tries < 100; tries++) {
    const mails = (await listOutbox(server.database, { to: email })).filter((mail) => /\/(register|confirmation\/moderator)\/mod-/.test(mail.text) && !exclude.some((token) => mail.text.includes(token)));
    const mail = mails[0];
    if (mail) {
      const [, path, token] = /https?:\/\/[^/\s]+(\/(?:register|confirmation\/moderator)\/(mod-[\w-]+))/.exec(mail.text)!;
      return { path: path!, token: token!, subject: mail.subject, text: mail.text };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no invitation mail to ${email}`);
}

describe("the product's token", () => {
  it('needs the client-credentials token of a first-party back end with the moderators scope', async () => {
    const website = site();
    expect((await invite(website, 'a@example.com', '')).statusCode).toBe(401);
    expect((await invite(website, 'a@example.com', 'not-a-token')).statusCode).toBe(401);
    const someone = await person();
    expect((await invite(website, 'a@example.com', someone.token)).statusCode).toBe(401);
    const withoutScope = await clientCredentialsToken(server, 'test-vulnscan', VULNSCAN_SECRET);
    const refused = await invite(website, 'a@example.com', withoutScope);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'forbidden']);
    // A public client has no client-credentials grant at all.
    await expect(clientCredentialsToken(server, 'test-public', '', 'moderators')).rejects.toThrow();
  });

  it('answers bad input as a 400 naming the field, never a 500', async () => {
    for (const [url, body] of [
      ['/products/websites/bad%20id/moderators', { email: 'a@example.com', website_name: 'x' }],
      ['/products/websites/ok/moderators', { email: 'not an email', website_name: 'x' }],
      ['/products/websites/ok/moderators', { email: 'a@example.com', website_name: '   ' }],
      ['/products/websites/ok/moderators', { email: 'a@example.com', website_name: 'x', language: 'fr' }],
      ['/products/websites/ok/notifications', { title: '' }],
    ] as const) {
      const response = await inject('POST', url, vulnscan, body);
      expect(response.statusCode, url).toBe(400);
    }
    expect((await inject('DELETE', '/products/websites/ok/moderators/not-a-uuid', vulnscan)).statusCode).toBe(400);
  });
});

describe('invitations', () => {
  it('is idempotent per product, website and email; mails a sign-up link to an email without an account', async () => {
    const website = site();
    const email = `new-${Date.now()}@example.com`;
    const first = await invite(website, email, vulnscan, { language: 'vi' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ website_id: website, website_name: `${website}.example.com`, email, status: 'pending', user_id: null, accepted_at: null });
    const again = await invite(website, email.toUpperCase());
    expect([again.statusCode, again.json().id]).toEqual([200, first.json().id]);
    const parallel = await Promise.all(Array.from({ length: 5 }, () => invite(website, email)));
    expect(new Set(parallel.map((response) => response.json().id))).toEqual(new Set([first.json().id]));
    expect(await moderatorsOf(website)).toHaveLength(1);
    const mail = await invitationLink(email);
    expect(mail.path).toBe(`/register/${mail.token}`);
    // In the language the product gave.
    expect(mail.subject).toMatch(new RegExp(`^Bạn được mời làm người kiểm duyệt ${website}\\.example\\.com trên `));
    // One mail only: the repeated calls answered the stored invitation.
    expect(await listOutbox(server.database, { to: email })).toHaveLength(1);
    // The token is stored only as its hash.
    expect(JSON.stringify(await moderatorsOf(website))).not.toContain(mail.token);
    // Another product's website of the same id is another website.
    expect(await moderatorsOf(website, locker)).toEqual([]);
  });

  it('links an email with an account to the result screen, in the English mail by default', async () => {
    const website = site();
    const someone = await person();
    expect((await invite(website, someone.email)).statusCode).toBe(201);
    const mail = await invitationLink(someone.email);
    expect(mail.path).toBe(`/confirmation/moderator/${mail.token}`);
    expect(mail.subject).toMatch(new RegExp(`^You are invited to moderate ${website}\\.example\\.com on `));
    const preview = await inject('POST', '/sso/moderator-invitations/preview', undefined, { token: mail.token });
    expect(preview.json()).toMatchObject({ website_name: `${website}.example.com`, email: someone.email, status: 'pending', has_account: true });
  });
});

describe('accepting', () => {
  it('accepts once, signed in as the invited email; a used, withdrawn, expired or unknown link says so', async () => {
    const website = site();
    const invited = await person();
    const other = await person();
    await invite(website, invited.email);
    const { token } = await invitationLink(invited.email);
    const accept = (session: string, value = token) => inject('POST', '/sso/me/moderator-invitations/accept', session, { token: value });
    expect((await inject('POST', '/sso/me/moderator-invitations/accept', undefined, { token })).statusCode).toBe(401);
    const wrong = await accept(other.token);
    expect([wrong.statusCode, wrong.json().code]).toEqual([403, 'moderators.invitation_other_person']);
    const accepted = await accept(invited.token);
    expect([accepted.statusCode, accepted.json().website_name]).toEqual([200, `${website}.example.com`]);
    const used = await accept(invited.token);
    expect([used.statusCode, used.json().code]).toEqual([409, 'moderators.invitation_used']);
    expect((await accept(invited.token, `mod-${'x'.repeat(43)}`)).json().code).toBe('moderators.invitation_invalid');
    const [moderator] = await moderatorsOf(website);
    expect(moderator).toMatchObject({ email: invited.email, status: 'accepted', user_id: invited.id });

    // Withdrawn by the product: the link says so, and the moderator is gone from the list.
    const pendingSite = site();
    await invite(pendingSite, other.email);
    const withdrawn = await invitationLink(other.email);
    const [pendingOne] = await moderatorsOf(pendingSite);
    expect((await inject('DELETE', `/products/websites/${pendingSite}/moderators/${pendingOne!.id}`, locker)).statusCode).toBe(404);
    expect((await inject('DELETE', `/products/websites/${pendingSite}/moderators/${pendingOne!.id}`, vulnscan)).statusCode).toBe(204);
    expect((await inject('DELETE', `/products/websites/${pendingSite}/moderators/${pendingOne!.id}`, vulnscan)).json().code).toBe('moderators.not_found');
    expect(await moderatorsOf(pendingSite)).toEqual([]);
    const revoked = await accept(other.token, withdrawn.token);
    expect([revoked.statusCode, revoked.json().code]).toEqual([410, 'moderators.invitation_revoked']);
    expect((await inject('POST', '/sso/moderator-invitations/preview', undefined, { token: withdrawn.token })).json().status).toBe('revoked');

    // Expired after 7 days; inviting again mails a new link, the old one stays dead.
    const lateSite = site();
    await invite(lateSite, other.email);
    const late = await invitationLink(other.email, [withdrawn.token]);
    clock.advance(7 * DAY + 1000);
    // A week later the session has gone idle: the person signs in again.
    other.token = (await identity.signIn(other.email, PASSWORD)).json().token as string;
    const expired = await accept(other.token, late.token);
    expect([expired.statusCode, expired.json().code]).toEqual([410, 'moderators.invitation_expired']);
    expect((await moderatorsOf(lateSite))[0]!.status).toBe('expired');
    const renewed = await invite(lateSite, other.email);
    expect([renewed.statusCode, renewed.json().status]).toEqual([200, 'pending']);
    const fresh = await invitationLink(other.email, [withdrawn.token, late.token]);
    expect(fresh.token).not.toBe(late.token);
    expect((await accept(other.token, late.token)).json().code).toBe('moderators.invitation_invalid');
    expect((await accept(other.token, fresh.token)).statusCode).toBe(200);
  });

  it('accepts the same link exactly once however many requests arrive at once', async () => {
    const website = site();
    const invited = await person();
    await invite(website, invited.email);
    const { token } = await invitationLink(invited.email);
    const answers = await Promise.all(Array.from({ length: 12 }, () => inject('POST', '/sso/me/moderator-invitations/accept', invited.token, { token })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(11);
  });

  it('signs up from the link: the new account is a moderator once activated', async () => {
    const website = site();
    const email = `signup-${Date.now()}@example.com`;
    await invite(website, email);
    const { token, path } = await invitationLink(email);
    expect(path).toBe(`/register/${token}`);
    expect((await inject('POST', '/sso/moderator-invitations/preview', undefined, { token })).json()).toMatchObject({ email, status: 'pending', has_account: false });
    expect((await inject('POST', '/sso/moderator-invitations/sign-up', undefined, { token })).statusCode).toBe(204);
    await identity.signUp(email, PASSWORD);
    expect((await moderatorsOf(website))[0]!.status).toBe('pending');
    expect((await identity.activate(email)).statusCode).toBeLessThan(300);
    const [moderator] = await moderatorsOf(website);
    expect(moderator).toMatchObject({ email, status: 'accepted', user_id: expect.any(String) });
    expect((await inject('POST', '/sso/moderator-invitations/sign-up', undefined, { token })).json().code).toBe('moderators.invitation_used');
  });
});

describe("the website's notifications", () => {
  it('reach every accepted moderator, not pending, revoked or other websites’ ones', async () => {
    const website = site();
    const [first, second, pending, removed, elsewhere] = [await person(), await person(), await person(), await person(), await person()];
    for (const moderator of [first, second, removed]) {
      await invite(website, moderator.email);
      const { token } = await invitationLink(moderator.email);
      expect((await inject('POST', '/sso/me/moderator-invitations/accept', moderator.token, { token })).statusCode).toBe(200);
    }
    await invite(website, pending.email);
    const otherSite = site();
    await invite(otherSite, elsewhere.email);
    const { token: elsewhereToken } = await invitationLink(elsewhere.email);
    await inject('POST', '/sso/me/moderator-invitations/accept', elsewhere.token, { token: elsewhereToken });
    const removedRow = (await moderatorsOf(website)).find((row) => row.email === removed.email)!;
    expect((await inject('DELETE', `/products/websites/${website}/moderators/${removedRow.id}`, vulnscan)).statusCode).toBe(204);

    const posted = await inject('POST', `/products/websites/${website}/notifications`, vulnscan, { title: 'Scan finished: 2 high-risk findings', body: 'SQL injection on /login', report_id: 'scan-42' });
    expect(posted.json()).toEqual({ delivered: 2 });
    // The same website id of another product has no moderators.
    expect((await inject('POST', `/products/websites/${website}/notifications`, locker, { title: 'x' })).json()).toEqual({ delivered: 0 });

    const titles = async (token: string) => ((await inject('GET', '/notifications', token)).json().items as Array<{ title: string; metadata: Record<string, string> }>).filter((item) => item.title.startsWith('Scan finished'));
    for (const moderator of [first, second]) expect(await titles(moderator.token)).toEqual([expect.objectContaining({ title: 'Scan finished: 2 high-risk findings', metadata: { report_id: 'scan-42' } })]);
    for (const outsider of [pending, removed, elsewhere]) expect(await titles(outsider.token)).toEqual([]);
  });
});
