import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { outputOf, runToolInProcess, toolDatabase } from '../../../test/operator-tools';
import { refusalOf } from '../../../test/refusal';
import { organizationsTool } from '../../cli/organizations-tool';
import { organizationAuditEvents, passkeys, users } from '../../db/schema';
import { limits } from '../../platform/rate-limit';
import { createOrganizationService, deploymentUrl, OrganizationAdminError } from './service';
import { eq } from 'drizzle-orm';

let server: TestServer;
let organizations: ReturnType<typeof createOrganizationService>;
let visitors = 0;
const nextAddress = () => `10.77.${Math.floor(++visitors / 250)}.${(visitors % 250) + 1}`;

const prelogin = (payload: unknown, remoteAddress = nextAddress(), product = 'locker') =>
  server.app.inject({ method: 'POST', url: `/v3/${product}_platform/pm/users/onpremise/prelogin`, remoteAddress, payload: payload as object });

beforeAll(async () => {
  server = await startTestServer();
  organizations = createOrganizationService({
    db: server.database.db,
    clock: { now: () => new Date() },
    accounts: {
      accountOf: async (email) => {
        const [user] = await server.database.db.select().from(users).where(eq(users.email, email));
        return user && { userId: user.id, avatarUrl: null };
      },
      passkeyCount: async () => 0,
    },
  });
  await identityClient(server.app, server.database).registeredUser('keyed@acme.example');
  await organizations.createNamed({ name: 'Acme', adminEmail: 'boss@acme.example' });
  await organizations.addMemberTo('Acme', 'keyed@acme.example');
  await organizations.addMemberTo('boss@acme.example', 'Plain@Acme.example');
  await organizations.createNamed({ name: 'Sleepy', adminEmail: 'admin@sleepy.example' });
  await organizations.createNamed({ name: 'NoServer', adminEmail: 'admin@noserver.example' });
  await organizations.registerDeployment({ organization: 'acme', baseApi: 'https://api.acme.example/', loginUrl: 'https://locker.acme.example/login', activated: true, requirePasswordless: true });
  await organizations.registerDeployment({ organization: 'admin@sleepy.example', baseApi: 'https://api.sleepy.example', loginUrl: 'https://locker.sleepy.example/login', activated: false, requirePasswordless: false });
});
afterAll(() => server.close());

describe('POST /v3/{product}_platform/pm/users/onpremise/prelogin', () => {
  it('answers an empty list for unknown emails and members of organizations without a deployment', async () => {
    for (const email of ['nobody@example.com', 'admin@noserver.example']) {
      const response = await prelogin({ email, language: 'en' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    }
  });

  it('answers an inactive deployment as not activated', async () => {
    expect((await prelogin({ email: 'admin@sleepy.example', language: 'vi' })).json()).toEqual([
      { activated: false, base_api: 'https://api.sleepy.example', email: 'admin@sleepy.example', avatar: null, require_passwordless: false, set_up_passwordless: false, login_url: 'https://locker.sleepy.example/login' },
    ]);
  });

  it('answers an active deployment with the passwordless flags of the member asking', async () => {
    // No account here yet: passwordless is required and there is no passkey to sign in with.
    expect((await prelogin({ email: ' PLAIN@acme.example ', language: 'en' })).json()).toEqual([
      { activated: true, base_api: 'https://api.acme.example', email: 'plain@acme.example', avatar: null, require_passwordless: true, set_up_passwordless: true, login_url: 'https://locker.acme.example/login' },
    ]);
    const [keyed] = await server.database.db.select().from(users).where(eq(users.email, 'keyed@acme.example'));
    expect((await prelogin({ email: 'keyed@acme.example' })).json()[0]).toMatchObject({ email: 'keyed@acme.example', avatar: null, set_up_passwordless: true });
    // With a passkey (the passkeys module counts it, wired in app.ts) there is nothing to set up.
    await server.database.db.insert(passkeys).values({ id: crypto.randomUUID(), userId: keyed!.id, credentialId: 'cred-keyed', publicKey: Buffer.from([1]), name: 'Laptop' });
    expect((await prelogin({ email: 'keyed@acme.example' })).json()[0]).toMatchObject({ require_passwordless: true, set_up_passwordless: false });
    // An account with a picture answers its absolute avatar URL.
    await server.database.db.update(users).set({ avatarVersion: 2 }).where(eq(users.id, keyed!.id));
    expect((await prelogin({ email: 'keyed@acme.example' })).json()[0].avatar).toMatch(new RegExp(`^https?://[^/]+/v3/.+${keyed!.id}.+\\?v=2$`));
    // Passwordless not required: never asked to set it up.
    await organizations.registerDeployment({ organization: 'Acme', baseApi: 'https://api.acme.example', loginUrl: 'https://locker.acme.example/login', activated: true, requirePasswordless: false });
    expect((await prelogin({ email: 'plain@acme.example' })).json()[0]).toMatchObject({ require_passwordless: false, set_up_passwordless: false });
  });

  it('refuses bad input with 400 field errors, never 500', async () => {
    const invalid = await prelogin({ email: 'not-an-email', language: 'en' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().details.fields.email).toMatchObject({ code: 'validation.emailInvalid', message: 'Email address is not valid' });
    const missing = await prelogin({ language: 'en' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.fields.email.code).toBe('validation.emailRequired');
    for (const payload of [{ email: 42 }, { email: 'a@b.example', language: 'x'.repeat(100) }, { email: 'a@b.example', language: 7 }, [], null]) {
      expect((await prelogin(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    // Not JSON at all: refused as such (415), still no 500.
    expect((await prelogin('text')).statusCode).toBe(415);
    expect((await prelogin({ email: 'a@b.example' }, undefined, 'Locker!')).statusCode).toBe(404);
    const raw = await server.app.inject({ method: 'POST', url: '/v3/locker_platform/pm/users/onpremise/prelogin', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(raw.statusCode).toBe(400);
  });

  it('counts lookups per address, found or not', async () => {
    const address = '10.88.0.1';
    // All at once: the count is one atomic step, so exactly the allowance gets through.
    const answers = await Promise.all(Array.from({ length: limits.onPremisePerIp.limit + 10 }, (_, index) => prelogin({ email: `someone${index}@example.com` }, address)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(limits.onPremisePerIp.limit);
    const refusals = answers.filter((answer) => answer.statusCode === 429);
    expect(refusals).toHaveLength(10);
    expect(refusals[0]!.json().code).toBe('rate_limited');
    expect((await prelogin({ email: 'plain@acme.example' }, '10.88.0.2')).statusCode).toBe(200);
  });
});

describe('the locker sign-in page', () => {
  it('keeps its opener (COOP unsafe-none) for a login client that names an allowed origin, which receives the result; other pages and openers stay isolated', async () => {
    const coop = async (url: string, host: string) => (await server.app.inject({ url, headers: { host } })).headers['cross-origin-opener-policy'];
    const named = (origin: string) => `origin=${encodeURIComponent(origin)}`;
    expect(await coop(`/login?${named(server.config.LOCKER_ORIGIN)}`, 'locker.localhost')).toBe('unsafe-none');
    expect(await coop(`/login?scope=pwdmanager&${named(server.config.PLATFORM_ORIGIN)}`, 'locker.localhost')).toBe('unsafe-none');
    expect(await coop('/login', 'locker.localhost')).toBe('same-origin');
    expect(await coop(`/login?${named('https://evil.example')}`, 'locker.localhost')).toBe('same-origin');
    expect(await coop('/login/password', 'locker.localhost')).toBe('same-origin');
    expect(await coop('/login', 'localhost')).toBe('same-origin');
  });
});

describe('organizations operator commands', () => {
  const refusal = (promise: Promise<unknown>) => refusalOf(promise, OrganizationAdminError);

  it('checks the deployment URLs', () => {
    expect(deploymentUrl('https://api.example.com/v3/', '--base-api', false)).toBe('https://api.example.com/v3');
    expect(deploymentUrl('http://127.0.0.1:5181/login', '--login-url', true)).toBe('http://127.0.0.1:5181/login');
    expect(() => deploymentUrl('http://api.example.com', '--base-api', false)).toThrow(/https/);
    expect(() => deploymentUrl('http://127.0.0.1:1', '--base-api', false)).toThrow(/https/);
    expect(() => deploymentUrl('http://intranet.example/login', '--login-url', true)).toThrow(/https/);
    expect(() => deploymentUrl('javascript:alert(1)', '--login-url', true)).toThrow(/https/);
    expect(() => deploymentUrl('https://user:pw@api.example.com', '--base-api', false)).toThrow(/user name/);
    expect(() => deploymentUrl('api.example.com', '--base-api', false)).toThrow(/absolute/);
    expect(() => deploymentUrl(undefined, '--base-api', false)).toThrow(/required/);
  });

  it('refuses what would break a rule', async () => {
    expect(await refusal(organizations.createNamed({ name: 'Again', adminEmail: 'boss@acme.example' }))).toBe('boss@acme.example is already in an organization');
    expect(await refusal(organizations.createNamed({ name: 'X', adminEmail: 'nope' }))).toBe('--admin must be an email address');
    expect(await refusal(organizations.addMemberTo('Nowhere', 'a@b.example'))).toBe('no organization is named Nowhere');
    expect(await refusal(organizations.addMemberTo('Acme', 'admin@sleepy.example'))).toBe('admin@sleepy.example is already in an organization');
    expect(await refusal(organizations.registerDeployment({ organization: 'stranger@example.com', baseApi: 'https://a.example', loginUrl: 'https://a.example/login', activated: true, requirePasswordless: false }))).toBe(
      'stranger@example.com is not in any organization',
    );
  });

  it('runs as npm run organizations against the configured database', async () => {
    // In this process (runToolWith), on a database of its own; cli/ runs the command as a process too.
    const target = await toolDatabase();
    const run = async (...args: string[]) => outputOf(await runToolInProcess(organizationsTool, args, { NODE_ENV: 'development', ...target.env }));
    try {
      expect(await run('create', 'Initech', '--admin', 'peter@initech.example')).toMatch(/^created organization Initech \(.+\), admin peter@initech.example/);
      expect(await run('add-member', 'Initech', 'milton@initech.example')).toMatch(/added milton@initech.example to Initech/);
      expect(await run('role', 'Initech', 'milton@initech.example', 'admin')).toMatch(/milton@initech.example is now admin of Initech \(was member\)/);
      await expect(run('role', 'Initech', 'peter@initech.example', 'member')).rejects.toThrow(/last owner of Initech/);
      await expect(run('role', 'Initech', 'milton@initech.example', 'boss')).rejects.toThrow(/the role must be one of owner, admin, member/);
      expect(await run('onpremise', 'peter@initech.example', '--base-api', 'https://api.initech.example', '--login-url', 'https://vault.initech.example/login', '--inactive', '--require-passwordless')).toMatch(
        /on-premise deployment of Initech: https:\/\/api.initech.example \(login https:\/\/vault.initech.example\/login\), not activated, passwordless required/,
      );
      await expect(run('onpremise', 'Initech', '--base-api', 'http://api.initech.example', '--login-url', 'https://x.example')).rejects.toThrow(/--base-api must be an https URL/);
      await target.use(async (db) => {
        const service = createOrganizationService({ db, clock: { now: () => new Date() } });
        // The operator's membership changes are in the audit log, as the web's are (no actor: the operator).
        const audited = await db.select().from(organizationAuditEvents).orderBy(organizationAuditEvents.id);
        expect(audited.map((event) => [event.action, event.targetEmail, event.actorEmail, event.detail])).toEqual([
          ['member_joined', 'milton@initech.example', null, { role: 'member', via: 'operator' }],
          ['role_changed', 'milton@initech.example', null, { role: 'admin', previous_role: 'member', via: 'operator' }],
        ]);
        expect(await service.onPremiseFor('milton@initech.example')).toEqual([
          { activated: false, base_api: 'https://api.initech.example', email: 'milton@initech.example', avatar: null, require_passwordless: true, set_up_passwordless: true, login_url: 'https://vault.initech.example/login' },
        ]);
      });
    } finally {
      await target.close();
    }
  }, 300_000);
});
