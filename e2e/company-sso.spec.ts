import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDnsServer } from '../packages/server/test/dns-server';
import { startOidcIdp } from '../packages/server/test/fake-idps';
import { samlIdp } from '../packages/server/test/saml-idp';
import { startSmtpPeer, type SmtpPeer } from '../packages/server/test/smtp-peer';
import { expectNoSeriousViolations } from './support/axe';
import { snap } from './support/helpers';
import { createActivatedAccount, poll } from './support/mail';
import { demoAccountFromLog, freePort, operatorCommand, startPortalServer, type PortalServer } from './support/server';

/**
 * Company SSO in Chromium. Two organizations are configured the way an operator
 * does it (`npm run organizations -- sso ... / domain ...`, domains verified against a DNS
 * server this spec starts) before the portal starts: Acme with an OpenID Connect IdP (a
 * second oidc-provider) and SSO required for its members, Globex with a SAML IdP whose page
 * posts really signed assertions to the portal's ACS.
 */
test.describe.configure({ mode: 'serial' });

const CLIENT = { clientId: 'acme-e2e', clientSecret: 'acme-e2e-secret-0123456789abcdef' };
let portal: PortalServer;
let dataDir: string;
let oidcIdp: Awaited<ReturnType<typeof startOidcIdp>>;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let samlServer: Server;
let peer: SmtpPeer;
let demo: { email: string; password: string };
const records = new Map<string, string[]>();

/** A SAML IdP's sign-in page: it reads our AuthnRequest and posts a signed response to its ACS, as a real IdP's page does after its login. */
async function startSamlIdpServer(port: number, idp: ReturnType<typeof samlIdp>, person: { nameId: string; email: string; name: string }) {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/sso') {
      response.statusCode = 404;
      response.end();
      return;
    }
    const authn = idp.readRequest(url.href);
    const samlResponse = idp.response({ requestId: authn.id, acsUrl: authn.acsUrl, audience: authn.issuer, ...person });
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      `<!doctype html><html lang="en"><title>Globex IdP</title><form method="post" action="${authn.acsUrl}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"><input type="hidden" name="RelayState" value=""></form><script>document.forms[0].submit()</script></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** The notice /login/sso shows when SSO is required (the `sso.required` error's text). */
const SSO_REQUIRED = {
  en: 'Your organization requires single sign-on (SSO). Sign in with your company SSO instead',
  vi: 'Tổ chức của bạn yêu cầu đăng nhập một lần (SSO). Hãy đăng nhập bằng SSO của công ty',
};

/**
 * /login/sso as a link confirmed where SSO is required leaves it (SsoLinkPage): the router
 * state it navigates with (react-router keeps it in history.state as `usr`), which the browser
 * keeps across the reload of the sign-in page open now. The link test reaches it for real; this
 * gives the other brand and language their screenshots without a link confirmed in each.
 */
async function openAsConfirmedLinkLeavesIt(page: Page, identifier: string) {
  await page.evaluate((state) => history.replaceState({ usr: state, key: 'linked', idx: 0 }, '', '/login/sso?next=%2Forganization'), { identifier, reason: 'sso.required' });
  await page.reload();
}

/** Screenshots at a wide desktop and a phone, after checking that nothing scrolls sideways. */
async function snapWideAndNarrow(page: Page, name: string) {
  for (const { width, height } of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await snap(page, `${name}-${width}`);
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  const samlPort = await freePort();
  oidcIdp = await startOidcIdp({ ...CLIENT, redirectUris: [`http://localhost:${port}/sso/redirect`] });
  dns = await startDnsServer(records);
  const idp = samlIdp('https://idp.globex.test/saml', `http://127.0.0.1:${samlPort}/sso`);
  samlServer = await startSamlIdpServer(samlPort, idp, { nameId: 'globex-wanda', email: 'wanda@globex.test', name: 'Wanda Globex' });
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-e2e-company-sso-'));
  const metadataFile = path.join(dataDir, 'globex-idp.xml');
  writeFileSync(metadataFile, idp.metadata);
  const env = { NODE_ENV: 'development', DATA_DIR: path.join(dataDir, 'db'), COMPANY_SSO_DNS_SERVER: dns.server, PLATFORM_ORIGIN: `http://localhost:${port}`, LOCKER_ORIGIN: `http://locker.localhost:${port}` };
  // Configured the way an operator does it (before the server opens the database); not
  // blocking this process, whose DNS server answers the verification.
  const organizations = (...args: string[]) => operatorCommand('organizations-admin', args, { ...env, COMPANY_SSO_CLIENT_SECRET: CLIENT.clientSecret });
  const verify = async (organization: string, domain: string) => {
    const record = /IN TXT "([^"]+)"/.exec(await organizations('domain', 'add', organization, domain))![1]!;
    records.set(domain, [record]);
    expect(await organizations('domain', 'verify', organization, domain)).toContain(`${domain} verified for ${organization}`);
  };
  await organizations('create', 'Acme', '--admin', 'boss@acme.test');
  // The connection and its requirement in one command (one process start fewer in this setup).
  const oidcOutput = await organizations('sso', 'Acme', '--identifier', 'acme', '--oidc-issuer', oidcIdp.issuer, '--client-id', CLIENT.clientId, '--require-sso', 'on');
  expect(oidcOutput).toContain(`redirect URIs to register: http://localhost:${port}/sso/redirect http://locker.localhost:${port}/sso/redirect`);
  expect(oidcOutput).toContain('SSO required');
  expect(oidcOutput).not.toContain(CLIENT.clientSecret);
  await verify('Acme', 'acme.test');
  // The demo account (seeded at the server's first start) is a member of Acme, which requires SSO.
  await organizations('add-member', 'Acme', 'demo@example.com');
  await organizations('create', 'Globex', '--admin', 'hank@globex.test');
  const samlOutput = await organizations('sso', 'Globex', '--identifier', 'globex', '--saml-metadata', metadataFile);
  expect(samlOutput).toContain(`ACS URL to register: http://localhost:${port}/v3/_auth/sso/saml/globex/acs`);
  await verify('Globex', 'globex.test');
  peer = await startSmtpPeer();
  portal = await startPortalServer({ env: { DATA_DIR: env.DATA_DIR, COMPANY_SSO_DNS_SERVER: dns.server, SMTP_URL: peer.url }, port });
  demo = (await demoAccountFromLog(portal.logFile))!;
});

test.afterAll(async () => {
  await portal?.close();
  await Promise.all([oidcIdp?.close(), dns?.close(), peer?.close(), new Promise((resolve) => (samlServer ? samlServer.close(resolve) : resolve(undefined)))]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('signs in by SSO identifier through OpenID Connect, a new person joining just in time', async ({ page }) => {
  oidcIdp.signInAs({ sub: 'acme-olga', email: 'olga@acme.test', name: 'Olga Acme' });
  await page.goto(`${portal.platformUrl}/login`);
  await page.getByRole('link', { name: 'Sign in with company SSO' }).click();
  await expect(page).toHaveURL(/\/login\/sso$/);
  await expect(page.getByRole('heading', { name: 'Sign in with company SSO' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByLabel('SSO identifier or work email').fill('ACME');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${portal.platformUrl}/`);
  const me = await page.context().request.get(`${portal.platformUrl}/v3/sso/me`);
  expect(await me.json()).toMatchObject({ email: 'olga@acme.test', full_name: 'Olga Acme' });
});

test('signs in by work email through SAML (a signed assertion posted to the ACS)', async ({ page }) => {
  await page.goto(`${portal.platformUrl}/login/sso`);
  await page.getByLabel('SSO identifier or work email').fill('wanda@globex.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${portal.platformUrl}/`);
  const me = await page.context().request.get(`${portal.platformUrl}/v3/sso/me`);
  expect(await me.json()).toMatchObject({ email: 'wanda@globex.test', full_name: 'Wanda Globex' });
});

test("says 'SSO identifier invalid' for an unknown identifier or an unverified domain", async ({ page }) => {
  await page.goto(`${portal.platformUrl}/login/sso`);
  const field = page.getByLabel('SSO identifier or work email');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Enter your SSO identifier or work email')).toBeVisible();
  await field.fill('no-such-company');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toHaveText('SSO identifier invalid');
  await expectNoSeriousViolations(page);
  await field.fill('someone@unverified.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('SSO identifier invalid')).toBeVisible();
  await expect(page).toHaveURL(/\/login\/sso$/);
});

test("refuses a member's password sign-in when the organization requires SSO, and points to company SSO", async ({ page }) => {
  await page.goto(`${portal.platformUrl}/login`);
  await page.getByLabel('Email or username').fill(demo.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Your organization requires single sign-on (SSO). Sign in with your company SSO instead');
  const me = await page.context().request.get(`${portal.platformUrl}/v3/sso/me`);
  expect(me.status()).toBe(401);
  await page.getByTestId('use-sso').click();
  await expect(page).toHaveURL(/\/login\/sso$/);
  await expect(page.getByLabel('SSO identifier or work email')).toHaveValue(demo.email);
});

test('links an existing account at the domain only after its owner signs in and confirms', async ({ page, request }) => {
  const owner = { email: 'erin@acme.test', password: 'plum-orbit-cactus-917', fullName: 'Erin Existing' };
  await createActivatedAccount(request, { platformUrl: portal.platformUrl, lockerUrl: portal.lockerUrl, waitForMail: (to, options) => poll(() => peer.messages, to, options) }, owner);
  oidcIdp.signInAs({ sub: 'acme-erin', email: owner.email, name: 'Erin at Acme' });
  await page.goto(`${portal.platformUrl}/login/sso`);
  await page.getByLabel('SSO identifier or work email').fill('acme');
  await page.getByRole('button', { name: 'Continue' }).click();
  // The IdP's word signs nobody in to an existing account.
  await expect(page.getByTestId('sso-error')).toHaveText('An account for erin@acme.test exists already. Sign in to it your usual way, then confirm linking it to Acme single sign-on');
  expect((await page.context().request.get(`${portal.platformUrl}/v3/sso/me`)).status()).toBe(401);
  await page.getByTestId('sso-link-account').click();
  await page.getByLabel('Email or username').fill(owner.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/organization\/sso\/link$/);
  await expect(page.getByTestId('sso-link')).toContainText('The identity provider of Acme signed in as erin@acme.test');
  await expectNoSeriousViolations(page);
  await snap(page, 'sso-link-platform-en');
  const visited: string[] = [];
  page.on('framenavigated', (frame) => void (frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname)));
  await page.getByRole('button', { name: 'Link and join' }).click();
  // Linked and joined: Acme requires SSO of its members, so the password session the link was confirmed on ends.
  // The page says why on company SSO sign-in, the email filled in, without passing through /login on the way.
  await expect(page).toHaveURL(/\/login\/sso\?next=%2Forganization$/);
  await expect(page.getByTestId('sso-required-notice')).toHaveText(SSO_REQUIRED.en);
  await expect(page.getByLabel('SSO identifier or work email')).toHaveValue(owner.email);
  expect(visited).toEqual(['/login/sso']);
  expect((await page.context().request.get(`${portal.platformUrl}/v3/sso/me`)).status()).toBe(401);
  await expectNoSeriousViolations(page);
  await snapWideAndNarrow(page, 'company-sso-required-platform-en');
  // The IdP signs the owner in from now on, and back to the organization.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(`${portal.platformUrl}/organization`);
  expect(await (await page.context().request.get(`${portal.platformUrl}/v3/sso/me`)).json()).toMatchObject({ email: 'erin@acme.test' });
});

test('screenshots of /login/sso in both brands and languages', async ({ page, context }) => {
  for (const [brand, origin] of [
    ['platform', portal.platformUrl],
    ['locker', portal.lockerUrl],
  ] as const) {
    for (const lang of ['en', 'vi'] as const) {
      await context.addCookies([{ name: 'lang', value: lang, url: origin }]);
      await page.goto(`${origin}/login/sso`);
      await expect(page.getByRole('button', { name: lang === 'en' ? 'Continue' : 'Tiếp tục' })).toBeVisible();
      await page.getByRole('button', { name: lang === 'en' ? 'Continue' : 'Tiếp tục' }).click();
      await snap(page, `company-sso-login-${brand}-${lang}`);
      // With the notice a confirmed link leaves (the platform's English one the link test took on the way).
      if (brand === 'platform' && lang === 'en') continue;
      await openAsConfirmedLinkLeavesIt(page, 'erin@acme.test');
      await expect(page.getByTestId('sso-required-notice')).toHaveText(SSO_REQUIRED[lang]);
      if (brand === 'locker' && lang === 'vi') await expectNoSeriousViolations(page);
      await snapWideAndNarrow(page, `company-sso-required-${brand}-${lang}`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }
});
