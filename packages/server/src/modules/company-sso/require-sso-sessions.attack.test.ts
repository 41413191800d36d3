import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser';
import { companySsoTestServer, refusedSoon } from '../../../test/company-sso';
import { runToolInProcess, toolDatabase } from '../../../test/operator-tools';
import { activeForProduct, productRefresh } from '../../../test/product-token-endpoint';
import { CALLBACK, PRODUCT_SECRET } from '../../../test/relying-party';
import { organizationsTool } from '../../cli/organizations-tool';
import { companySsoConnections, mailOutbox, oidcModels, oidcSessionLinks, organizationInvitations, organizationMembers, sessions, users } from '../../db/schema';
import { sha256 } from '../../platform/crypto';
import { sweepExpired } from '../oauth';
import { createSessionService } from '../sessions';

/**
 * A member the company wants to force through its IdP (someone it offboards there) holds a
 * session from a password sign-in, and a product's tokens got through it. Once the organization
 * requires SSO (its owner on the settings screen, or an operator's command), or once they join an
 * organization that already requires it (an operator adds them, they accept an invitation), the
 * session is refused on /v3 and the product's refresh and access tokens are dead. A member signed
 * in through the IdP keeps their session; nobody outside the organization loses anything.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const ORGANIZATION = 'Initech';
const OTHER = 'Hooli';

const h = companySsoTestServer({ clientId: 'initech-portal', clientSecret: 'initech-portal-secret-0123456789abcdef', addresses: '127.17', provider: true });

beforeAll(async () => {
  await h.organizationWithIdp(ORGANIZATION, 'initech', 'initech.test');
  await h.organizationWithIdp(OTHER, 'hooli', 'hooli.test');
});

const me = async (token: string) => (await h.server.app.inject({ url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` }, remoteAddress: h.nextAddress() })).statusCode;
const put = (token: string, url: string, payload: object) => h.server.app.inject({ method: 'PUT', url, payload, headers: { authorization: `Bearer ${token}` }, remoteAddress: h.nextAddress() });

/** The test product's tokens, by the code flow in a browser (a new one unless given) signed in to the portal with `token`. */
async function productTokens(token: string, browser = new TestBrowser(h.server.url)): Promise<oidc.TokenEndpointResponse> {
  const product = await oidc.discovery(new URL(h.server.url), 'test-product', {}, oidc.ClientSecretBasic(PRODUCT_SECRET), { execute: [oidc.allowInsecureRequests] });
  browser.setCookie('auth_token', token);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(product, { redirect_uri: CALLBACK, scope: 'openid email offline_access', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
  const { url: callback } = await browser.walk(url.href);
  const tokens = await oidc.authorizationCodeGrant(product, callback, { pkceCodeVerifier: verifier, expectedState: state });
  expect(tokens.refresh_token).toBeTruthy();
  return tokens;
}

/** A person signed in with a password, and the product's tokens got through that session. */
async function withPasswordSession(email: string) {
  const token = await h.client.registeredUser(email, PASSWORD);
  return { email, token, tokens: await productTokens(token) };
}

/** A member signed in through the organization's IdP (just in time), and the product's tokens got through that session. */
async function withSsoSession(email: string, identifier = 'initech') {
  const answer = await h.oidcSignIn({ sub: `sub-${email}`, email, name: 'Signed In Through SSO' }, identifier);
  expect(answer.statusCode, answer.body).toBe(200);
  const token = answer.json().token as string;
  return { email, token, tokens: await productTokens(token) };
}

type Held = Awaited<ReturnType<typeof withPasswordSession>>;

/** Whether the session, the product's access token and its refresh token still work; a refresh rotates the tokens held. */
async function standing(held: Held) {
  const access = await activeForProduct(h.server, held.tokens.access_token);
  const refreshed = await productRefresh(h.server, held.tokens.refresh_token!);
  if (refreshed.status === 200) Object.assign(held.tokens, { access_token: refreshed.access_token, refresh_token: refreshed.refresh_token });
  return { session: (await me(held.token)) === 200, refresh: refreshed.status === 200, access };
}
const ALIVE = { session: true, refresh: true, access: true };
const ENDED = { session: false, refresh: false, access: false };
/** Everything `held` stood on has ended: the session within moments (refusedSoon), the tokens, read from the database, at once. */
async function expectEnded(held: Held, label?: string) {
  await refusedSoon(() => me(held.token), label);
  expect(await standing(held), label).toEqual(ENDED);
}

const requireSso = (organization: string, on: boolean) => h.admin.setRequireSso({ organization, requireSso: on });

/** A member of the organization (not requiring SSO yet) with the product's tokens got through a password session, then through an SSO session since joining. */
async function memberWithBothSessions(email: string) {
  await requireSso(ORGANIZATION, false);
  const password = await withPasswordSession(email);
  await h.organizations.addMemberTo(ORGANIZATION, email);
  return { email, password, sso: await withSsoSession(email) };
}

/** Everyone the requirement must leave alone: an SSO member, a person in no organization, a member of another organization. */
async function bystanders(label: string) {
  const ssoMember = await withSsoSession(`${label}-sso@initech.test`);
  const outsider = await withPasswordSession(`${label}-outsider@example.test`);
  const otherMember = await withPasswordSession(`${label}-other@hooli.test`);
  await h.organizations.addMemberTo(OTHER, otherMember.email);
  return [ssoMember, outsider, otherMember];
}

describe('an organization starts requiring SSO', () => {
  it("on the settings screen, asked by an admin signed in through the IdP: members' password sessions and their products' tokens end, the admin's own SSO session stays", async () => {
    await requireSso(ORGANIZATION, false);
    const owner = await withPasswordSession('boss@initech.test');
    const admin = await withSsoSession('chief@initech.test');
    await h.server.database.db.update(organizationMembers).set({ role: 'admin' }).where(eq(organizationMembers.email, admin.email));
    const member = await withPasswordSession('api-member@initech.test');
    await h.organizations.addMemberTo(ORGANIZATION, member.email);
    const others = await bystanders('api');
    for (const held of [owner, admin, member, ...others]) expect(await standing(held), held.email).toEqual(ALIVE);

    // Asked on a password session: refused, and nothing ends (a broken IdP would lock everyone out).
    const refused = await put(owner.token, '/v3/sso/me/organization/sso/require', { require_sso: true });
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'sso.sign_in_first']);
    for (const held of [owner, admin, member]) expect(await standing(held), held.email).toEqual(ALIVE);

    const turnedOn = await put(admin.token, '/v3/sso/me/organization/sso/require', { require_sso: true });
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    expect(turnedOn.json()).toMatchObject({ require_sso: true });

    for (const held of [member, owner]) await expectEnded(held, held.email);
    for (const held of [admin, ...others]) expect(await standing(held), held.email).toEqual(ALIVE);
  });

  it("by the operators' command: the same", async () => {
    await requireSso(ORGANIZATION, false);
    const member = await withPasswordSession('cli-member@initech.test');
    await h.organizations.addMemberTo(ORGANIZATION, member.email);
    const others = await bystanders('cli');

    const { sessionsEnded } = await requireSso(ORGANIZATION, true);
    expect(sessionsEnded).toBeGreaterThanOrEqual(1);

    await expectEnded(member);
    for (const held of others) expect(await standing(held), held.email).toEqual(ALIVE);
  });

  it('an SSO session from before the person joined (another IdP vouched for it) ends too', async () => {
    await requireSso(ORGANIZATION, false);
    const email = 'mover@hooli.test';
    const moved = await withSsoSession(email, 'hooli');
    await h.server.database.db.delete(organizationMembers).where(eq(organizationMembers.email, email));
    await h.organizations.addMemberTo(ORGANIZATION, email);
    expect(await standing(moved)).toEqual(ALIVE);
    await requireSso(ORGANIZATION, true);
    await expectEnded(moved);
  });
});

describe('the next holder of an address a member gave up', () => {
  it("keeps their sessions when the organization requires SSO; the member's own end, under their new address", async () => {
    await requireSso(ORGANIZATION, false);
    const old = 'gave-up@initech.test';
    const member = await withPasswordSession(old);
    await h.organizations.addMemberTo(ORGANIZATION, old);
    const { db } = h.server.database;
    // The row names the member's account; their email changed while the row kept the old address.
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, old));
    await db.update(organizationMembers).set({ userId: account!.id }).where(eq(organizationMembers.email, old));
    await db.update(users).set({ email: 'moved-on@example.test' }).where(eq(users.id, account!.id));
    // The member's used activation link is still in the outbox: the next holder's registration would follow it if its own mail was not written yet.
    await db.delete(mailOutbox).where(eq(mailOutbox.to, old));
    const nextHolder = await withPasswordSession(old);

    await requireSso(ORGANIZATION, true);
    await expectEnded(member);
    // Before, the sweep matched accounts by the row's email too: the stranger's sessions ended.
    expect(await standing(nextHolder)).toEqual(ALIVE);
  });
});

describe("an app's device sign-in", () => {
  it('approved on a password session ends with it, though the member keeps a session the IdP signed in', async () => {
    const { password, sso } = await memberWithBothSessions('device@initech.test');
    const desktop = await oidc.discovery(new URL(h.server.url), 'test-desktop', {}, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    /** The desktop app's tokens, its sign-in allowed on the session of `token`. */
    const deviceSignIn = async (token: string) => {
      const device = await oidc.initiateDeviceAuthorization(desktop, { scope: 'openid offline_access' });
      const approved = await h.server.app.inject({ method: 'POST', url: '/v3/oauth/device/decision', payload: { user_code: device.user_code, allow: true }, headers: { authorization: `Bearer ${token}` }, remoteAddress: h.nextAddress() });
      expect(approved.statusCode, approved.body).toBe(200);
      const tokens = await oidc.pollDeviceAuthorizationGrant(desktop, { ...device, interval: 0.01 });
      expect(await activeForProduct(h.server, tokens.access_token)).toBe(true);
      return tokens;
    };
    const onPassword = await deviceSignIn(password.token);
    const onSso = await deviceSignIn(sso.token);

    await requireSso(ORGANIZATION, true);
    await expectEnded(password);
    expect(await standing(sso)).toEqual(ALIVE);
    expect(await activeForProduct(h.server, onPassword.access_token)).toBe(false);
    expect(await activeForProduct(h.server, onPassword.refresh_token!)).toBe(false);
    // Allowed through the IdP's session: it stays.
    expect(await activeForProduct(h.server, onSso.access_token)).toBe(true);
    expect(await activeForProduct(h.server, onSso.refresh_token!)).toBe(true);
  });
});

describe("a product's tokens whose provider session is gone", () => {
  it('still end with the password session they were got through, after the hourly sweep ran, though the member keeps a session the IdP signed in', async () => {
    await requireSso(ORGANIZATION, false);
    const email = 'swept@initech.test';
    const password = await withPasswordSession(email);
    const db = h.server.database.db;
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    // The provider's cookie session ends (its own lifetime, or the browser's cookie cleared)
    // while the product keeps refreshing: its tokens outlive it (expiresWithSession is off).
    const providerSessions = await db
      .update(oidcModels)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oidcModels.model, 'Session'), eq(oidcModels.accountId, account!.id)))
      .returning({ uid: oidcModels.uid });
    expect(providerSessions.length).toBeGreaterThanOrEqual(1);
    for (const { uid } of providerSessions) await db.update(oidcSessionLinks).set({ createdAt: new Date(Date.now() - 2 * 3600_000) }).where(eq(oidcSessionLinks.sessionUid, uid!));
    await sweepExpired(db);
    // The link of each gone provider session stays while the product's tokens stand on it.
    const links = () => db.select({ uid: oidcSessionLinks.sessionUid }).from(oidcSessionLinks).where(inArray(oidcSessionLinks.sessionUid, providerSessions.map(({ uid }) => uid!)));
    expect(await links()).toHaveLength(providerSessions.length);
    expect(await standing(password)).toEqual(ALIVE);

    await h.organizations.addMemberTo(ORGANIZATION, email);
    const sso = await withSsoSession(email);
    await requireSso(ORGANIZATION, true);
    await expectEnded(password);
    expect(await standing(sso)).toEqual(ALIVE);
    expect(await links()).toEqual([]);

    // Once nothing stands on a gone provider session any more, the sweep drops its link.
    const [ssoLink] = await db.select().from(oidcSessionLinks).innerJoin(sessions, eq(sessions.id, oidcSessionLinks.portalSessionId)).where(eq(sessions.tokenHash, sha256(sso.token)));
    const uid = ssoLink!.oidc_session_links.sessionUid;
    const linkOf = () => db.select().from(oidcSessionLinks).where(eq(oidcSessionLinks.sessionUid, uid));
    await db.update(oidcSessionLinks).set({ createdAt: new Date(Date.now() - 2 * 3600_000) }).where(eq(oidcSessionLinks.sessionUid, uid));
    // Its tokens gone but the provider session itself alive: the link stays.
    await db.update(oidcModels).set({ expiresAt: new Date(Date.now() - 1000) }).where(and(eq(oidcModels.sessionUid, uid), ne(oidcModels.model, 'Session')));
    await sweepExpired(db);
    expect(await linkOf()).toHaveLength(1);
    await db.update(oidcModels).set({ expiresAt: new Date(Date.now() - 1000) }).where(and(eq(oidcModels.model, 'Session'), eq(oidcModels.uid, uid)));
    await sweepExpired(db);
    expect(await linkOf()).toEqual([]);
  });

  it('end with the requirement when the portal session they were got through is gone, though the member keeps a session the IdP signed in', async () => {
    const { password, sso } = await memberWithBothSessions('retained@initech.test');
    // The password session expired long ago and the retention sweep deleted its row
    // (sessions/retention.ts), its link to the provider session with it; the product still refreshes.
    const db = h.server.database.db;
    await db.delete(sessions).where(eq(sessions.tokenHash, sha256(password.token)));
    expect(await standing(password)).toEqual({ session: false, refresh: true, access: true });

    await requireSso(ORGANIZATION, true);
    await expectEnded(password);
    expect(await standing(sso)).toEqual(ALIVE);
  });
});

describe("a product's tokens whose portal sessions are both gone, the one through a password, the other through the IdP", () => {
  it('end with the requirement for the password sign-in, though the product keeps one grant for both and the SSO sign-in proves it', async () => {
    const { email, password, sso } = await memberWithBothSessions('one-grant@initech.test');
    const db = h.server.database.db;
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    // A product's grant is the person's latest (existing-grant.ts): both sign-ins' tokens stand on it.
    const grants = await db.selectDistinct({ grantId: oidcModels.grantId }).from(oidcModels).where(and(eq(oidcModels.accountId, account!.id), eq(oidcModels.model, 'RefreshToken')));
    expect(grants).toHaveLength(1);
    // Both sessions expired long ago and the retention sweep deleted their rows (and links); the product still refreshes both.
    await db.delete(sessions).where(eq(sessions.userId, account!.id));

    await requireSso(ORGANIZATION, true);
    const refreshes = async (held: Held) => (await productRefresh(h.server, held.tokens.refresh_token!)).status === 200;
    expect({ password: await refreshes(password), sso: await refreshes(sso) }).toEqual({ password: false, sso: true });
  });
});

describe("a product's tokens got through a password session, in a browser that later signed in through the IdP", () => {
  it('end with the password session, though the provider session they were issued in authorized the product again on the SSO session', async () => {
    await requireSso(ORGANIZATION, false);
    const email = 'same-browser@initech.test';
    const passwordToken = await h.client.registeredUser(email, PASSWORD);
    await h.organizations.addMemberTo(ORGANIZATION, email);
    const browser = new TestBrowser(h.server.url);
    const password = { email, token: passwordToken, tokens: await productTokens(passwordToken, browser) };
    // The person signs in again in the same browser, through the IdP (the password session went
    // idle, or was left behind): the provider's cookie session of the same person stays.
    const answer = await h.oidcSignIn({ sub: `sub-${email}`, email, name: 'Same Browser' }, 'initech');
    expect(answer.statusCode, answer.body).toBe(200);
    const ssoToken = answer.json().token as string;
    const sso = { email, token: ssoToken, tokens: await productTokens(ssoToken, browser) };

    await requireSso(ORGANIZATION, true);
    await expectEnded(password);
    expect(await standing(sso)).toEqual(ALIVE);
  });
});

describe('the command itself (npm run organizations) on the configured database', () => {
  it('sso --require-sso on: ends the members\' password sessions, keeps SSO ones, and says how many; add-member then ends the newcomer\'s', async () => {
    const target = await toolDatabase();
    const run = async (...args: string[]) => {
      const outcome = await runToolInProcess(organizationsTool, args, { NODE_ENV: 'development', ...target.env });
      expect(outcome.code, outcome.stderr).toBe(0);
      return outcome.stdout;
    };
    try {
      await run('create', 'Initrode', '--admin', 'boss@initrode.example');
      const now = new Date();
      const person = (email: string) => ({ id: randomUUID(), email, fullName: email, activatedAt: now, createdAt: now, updatedAt: now });
      const [boss, ssoMember, joiner, outsider] = ['boss@initrode.example', 'sso@initrode.example', 'joiner@initrode.example', 'outsider@example.test'].map(person);
      const signedIn = await target.use(async (db) => {
        await db.insert(users).values([boss!, ssoMember!, joiner!, outsider!]);
        const [organization] = await db.select({ id: organizationMembers.organizationId }).from(organizationMembers).where(eq(organizationMembers.email, boss!.email));
        await db.insert(organizationMembers).values({ organizationId: organization!.id, email: ssoMember!.email, userId: ssoMember!.id, role: 'member', createdAt: now });
        await db.insert(companySsoConnections).values({ organizationId: organization!.id, identifier: 'initrode', kind: 'oidc', oidcIssuer: 'https://login.initrode.example', oidcClientId: 'portal', oidcClientSecret: 'sealed', createdAt: now, updatedAt: now });
        const made = createSessionService(db, { now: () => new Date() });
        const context = { deviceId: 'device', ip: '192.0.2.1' };
        return {
          boss: (await made.create(boss!.id, context, ['pwd'])).session.id,
          sso: (await made.create(ssoMember!.id, context, ['sso'])).session.id,
          joiner: (await made.create(joiner!.id, context, ['pwd'])).session.id,
          outsider: (await made.create(outsider!.id, context, ['pwd'])).session.id,
        };
      });
      const revoked = () => target.use(async (db) => Object.fromEntries((await db.select({ id: sessions.id, revokedAt: sessions.revokedAt }).from(sessions)).map((row) => [row.id, row.revokedAt !== null])));

      expect(await run('sso', 'Initrode', '--require-sso', 'on')).toContain('1 session of members not signed in through SSO ended');
      expect(await revoked()).toEqual({ [signedIn.boss]: true, [signedIn.sso]: false, [signedIn.joiner]: false, [signedIn.outsider]: false });

      await run('add-member', 'Initrode', joiner!.email);
      expect(await revoked()).toEqual({ [signedIn.boss]: true, [signedIn.sso]: false, [signedIn.joiner]: true, [signedIn.outsider]: false });
    } finally {
      await target.close();
    }
  }, 120_000);
});

describe('a person joins an organization that requires SSO', () => {
  it("added by an operator: their password sessions and their products' tokens end", async () => {
    await requireSso(ORGANIZATION, true);
    const joiner = await withPasswordSession('added@initech.test');
    const others = await bystanders('added');
    await h.organizations.addMemberTo(ORGANIZATION, joiner.email);
    await expectEnded(joiner);
    for (const held of others) expect(await standing(held), held.email).toEqual(ALIVE);
  });

  it('accepting an invitation on a password session: that session ends too, with every other and the tokens', async () => {
    await requireSso(ORGANIZATION, true);
    const email = 'invited@example.test';
    const joiner = await withPasswordSession(email);
    const other = { ...joiner, token: (await h.client.signIn(email, PASSWORD)).json().token as string };
    const invitation = randomUUID();
    const [organization] = await h.server.database.db.select({ id: organizationMembers.organizationId }).from(organizationMembers).where(eq(organizationMembers.email, 'boss@initech.test'));
    const now = new Date();
    await h.server.database.db.insert(organizationInvitations).values({ id: randomUUID(), organizationId: organization!.id, email, role: 'member', tokenHash: sha256(invitation), expiresAt: new Date(now.getTime() + 86_400_000), createdAt: now });

    const accepted = await h.server.app.inject({ method: 'POST', url: '/v3/sso/me/organization/invitations/accept', payload: { token: invitation }, headers: { authorization: `Bearer ${joiner.token}` }, remoteAddress: h.nextAddress() });
    expect(accepted.statusCode, accepted.body).toBe(200);

    await expectEnded(joiner);
    expect(await me(other.token)).toBe(401);
    const [user] = await h.server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const live = await h.server.database.db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.userId, user!.id));
    expect(live.every((row) => row.revokedAt !== null)).toBe(true);
  });
});

describe('confirming a company SSO link on a password session', () => {
  /** A person signed in with a password whose email Initech's IdP named: the link their browser holds. */
  async function waitingLink(email: string) {
    const held = await withPasswordSession(email);
    const refused = await h.oidcSignIn({ sub: `sub-${email}`, email, name: 'Linking Person' }, 'initech');
    expect(refused.json().code, refused.body).toBe('sso.link_required');
    return { held, cookie: refused.cookies.find((cookie) => cookie.name === 'portal_sso_link')!.value };
  }
  const confirm = (token: string, cookie: string) =>
    h.server.app.inject({ method: 'POST', url: '/v3/sso/me/organization/sso/link', headers: { authorization: `Bearer ${token}` }, cookies: { portal_sso_link: cookie }, remoteAddress: h.nextAddress() });

  for (const [required, after] of [
    [true, ENDED],
    [false, ALIVE],
  ] as const) {
    it(`where SSO is ${required ? 'required: that session ends with its tokens' : 'not required: that session goes on'}, and the answer says sso_required ${required}, carrying no session`, async () => {
      await requireSso(ORGANIZATION, required);
      const email = `link-${required ? 'required' : 'optional'}@initech.test`;
      const { held, cookie } = await waitingLink(email);
      const confirmed = await confirm(held.token, cookie);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toEqual({ organization_name: ORGANIZATION, email, sso_required: required });
      // The link is spent; nothing else is set (no session cookie, no token in the answer).
      expect(confirmed.cookies.map((set) => [set.name, set.value])).toEqual([['portal_sso_link', '']]);
      expect(await standing(held)).toEqual(after);
    });
  }
});

describe("a member's personal API keys", () => {
  /** A personal API key made on this session (a fresh one: making a key asks for a recent proof of identity). */
  async function apiKey(token: string, name: string): Promise<string> {
    const made = await h.server.app.inject({ method: 'POST', url: '/v3/sso/me/api-keys', payload: { name, scopes: ['me:read'] }, headers: { authorization: `Bearer ${token}` }, remoteAddress: h.nextAddress() });
    expect(made.statusCode, made.body).toBe(201);
    return made.json().key as string;
  }

  it('made on a password session are revoked when SSO becomes required, and when the person joins where it is; made on an SSO session, kept', async () => {
    await requireSso(ORGANIZATION, false);
    const member = await withPasswordSession('keyed-member@initech.test');
    await h.organizations.addMemberTo(ORGANIZATION, member.email);
    const ssoMember = await withSsoSession('keyed-sso@initech.test');
    const outsider = await withPasswordSession('keyed-outsider@example.test');
    const keys = { member: await apiKey(member.token, 'Deploy script'), ssoMember: await apiKey(ssoMember.token, 'CI'), outsider: await apiKey(outsider.token, 'Backup') };
    for (const key of Object.values(keys)) expect(await me(key)).toBe(200);

    await requireSso(ORGANIZATION, true);
    // Before, the member's key went on answering after every session of theirs had ended.
    expect(await me(keys.member)).toBe(401);
    expect([await me(keys.ssoMember), await me(keys.outsider)]).toEqual([200, 200]);

    const joiner = await withPasswordSession('keyed-joiner@initech.test');
    const joinersKey = await apiKey(joiner.token, 'Laptop');
    await h.organizations.addMemberTo(ORGANIZATION, joiner.email);
    expect(await me(joinersKey)).toBe(401);
    expect([await me(keys.ssoMember), await me(keys.outsider)]).toEqual([200, 200]);
  });

  it('made on an SSO session from before the person joined (another IdP signed it in) are revoked with that session', async () => {
    await requireSso(ORGANIZATION, false);
    const email = 'keyed-mover@hooli.test';
    const moved = await withSsoSession(email, 'hooli');
    await h.server.database.db.delete(organizationMembers).where(eq(organizationMembers.email, email));
    await h.organizations.addMemberTo(ORGANIZATION, email);
    // Made after joining, on the session Hooli's IdP signed in before: Initech's IdP vouched for neither.
    const key = await apiKey(moved.token, 'Made after moving');
    expect(await me(key)).toBe(200);

    await requireSso(ORGANIZATION, true);
    // The operator's services are another node: the server forgets the session when the database's notice arrives.
    await refusedSoon(() => me(moved.token));
    // Before, the key counted as vouched for from its own creation, not the session's sign-in: it went on answering.
    expect(await me(key)).toBe(401);
  });
});
