import { expect, test, type BrowserContext } from '@playwright/test';
import { startDnsServer } from '../packages/server/test/dns-server';
import { settledViolations as seriousViolations } from './support/axe';
import { signIn } from './support/auth';
import { snap } from './support/helpers';
import { codeIn, createActivatedAccount, type Portal } from './support/mail';
import { postFromPage, startOrganizationPortal, type OrganizationPortal } from './support/organizations';
import type { PortalServer } from './support/server';

/**
 * The organization's company SSO settings screen in Chromium: an owner sets the
 * identity provider (a bad issuer first), adds a domain, verifies it against a DNS server this
 * spec starts (first before the record is published), and removes another; a plain member is
 * refused. Last, the owner asks to require SSO on a password session: refused until they sign in
 * through the identity provider (the server tests cover what requiring it ends). Screenshots of
 * both brands and languages.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'plum-orbit-cactus-917';
const stamp = Date.now().toString(36);
const owner = { email: `owner-${stamp}@acme.example`, password: PASSWORD, fullName: 'Olive Owner' };
const member = { email: `member-${stamp}@acme.example`, password: PASSWORD, fullName: 'Max Member' };

let server: PortalServer;
let portal: Portal;
let organization: OrganizationPortal;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
const records = new Map<string, string[]>();

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  dns = await startDnsServer(records);
  organization = await startOrganizationPortal('sso-settings', { name: 'Acme', owner: owner.email, members: [member.email] }, { COMPANY_SSO_DNS_SERVER: dns.server });
  ({ server, portal } = organization);
  for (const account of [owner, member]) await createActivatedAccount(request, portal, account);
});

test.afterAll(async () => {
  await organization?.close();
  await dns?.close();
});



async function setLanguage(context: BrowserContext, language: 'en' | 'vi'): Promise<void> {
  await context.addCookies([server.platformUrl, server.lockerUrl].map((url) => ({ name: 'lang', value: language, url })));
}

test('the owner sets the identity provider and verifies a domain', async ({ page, context }) => {
  test.slow();
  await signIn(context, server.platformUrl, owner);
  await page.goto(`${server.platformUrl}/`);
  // Under the Organization entry of the side bar.
  await page.getByRole('button', { name: 'Organization' }).click();
  await page.getByRole('link', { name: 'Company SSO' }).click();
  await expect(page).toHaveURL(/\/organization\/sso$/);
  await expect(page.getByRole('heading', { name: 'Company SSO', level: 1 })).toBeVisible();
  await expect(page.getByTestId('sso-require')).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);

  // A bad issuer: the field says why; nothing is saved.
  const provider = page.getByTestId('sso-provider-form');
  await provider.getByLabel('SSO identifier').fill('acme');
  await provider.getByLabel('Issuer URL').fill('ftp://login.acme.example');
  await provider.getByLabel('Client ID').fill('portal');
  await provider.getByLabel('Client secret').fill('acme-client-secret-0123456789');
  await provider.getByRole('button', { name: 'Save identity provider' }).click();
  await expect(provider.getByText('Enter the issuer as an https URL without a query or fragment')).toBeVisible();
  await provider.getByLabel('Issuer URL').fill('https://login.acme.example');
  await provider.getByRole('button', { name: 'Save identity provider' }).click();
  await expect(page.getByText('The identity provider was saved')).toBeVisible();
  await expect(page.getByTestId('sso-registration')).toContainText(`${server.platformUrl}/sso/redirect`);
  await expect(provider.getByText('A secret is stored and never shown.')).toBeVisible();
  await expect(provider.getByLabel('Client secret')).toHaveValue('');
  expect(await page.content()).not.toContain('acme-client-secret-0123456789');

  // Bad metadata: a clear field error, never a server error.
  await provider.getByLabel('SAML 2.0').check();
  await provider.getByLabel('IdP metadata XML').fill('<EntityDescriptor');
  await provider.getByRole('button', { name: 'Save identity provider' }).click();
  await expect(provider.getByText(/Enter IdP metadata XML with an entityID/)).toBeVisible();
  await provider.getByLabel('OpenID Connect').check();

  // Domains: one verified after its record is published, one removed.
  const domainForm = page.getByTestId('sso-domain-form');
  await domainForm.getByLabel('Domain').fill('not a domain');
  await domainForm.getByRole('button', { name: 'Add domain' }).click();
  await expect(domainForm.getByText('Enter a domain such as example.com')).toBeVisible();
  await domainForm.getByLabel('Domain').fill('acme.example');
  await domainForm.getByRole('button', { name: 'Add domain' }).click();
  const row = page.getByTestId('sso-domain').filter({ hasText: 'acme.example' });
  await expect(row).toContainText('Not verified');
  const record = (await row.getByTestId('sso-domain-record').textContent())!;
  expect(record).toMatch(/^portal-verification=/);
  await row.getByRole('button', { name: 'Verify acme.example now' }).click();
  await expect(row.getByTestId('sso-domain-error')).toHaveText('The TXT record was not found on acme.example yet. DNS changes can take a while: try again later');
  await domainForm.getByLabel('Domain').fill('legacy-acme.test');
  await domainForm.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByTestId('sso-domain')).toHaveCount(2);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'sso-settings-pending-platform-en');

  records.set('acme.example', ['v=spf1 -all', record]);
  await row.getByRole('button', { name: 'Verify acme.example now' }).click();
  await expect(row).toContainText('Verified');
  // The other proves itself by a code mailed to its hostmaster, through the real SMTP peer.
  const legacy = page.getByTestId('sso-domain').filter({ hasText: 'legacy-acme.test' });
  await legacy.getByLabel('Address at legacy-acme.test to mail the code to').selectOption('hostmaster@legacy-acme.test');
  await legacy.getByRole('button', { name: 'Mail a code' }).click();
  const code = codeIn(await portal.waitForMail('hostmaster@legacy-acme.test'));
  await legacy.getByLabel('Code mailed to hostmaster@legacy-acme.test').fill(code === '000000' ? '111111' : '000000');
  await legacy.getByRole('button', { name: 'Verify with code' }).click();
  await expect(legacy.getByTestId('sso-mail-proof-error')).toHaveText('Verification code incorrect or expired');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'sso-settings-mail-proof-platform-en');
  await legacy.getByLabel('Code mailed to hostmaster@legacy-acme.test').fill(code);
  await legacy.getByRole('button', { name: 'Verify with code' }).click();
  await expect(legacy).toContainText('Verified');
  await page.getByRole('button', { name: 'Remove legacy-acme.test' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('sso-domain')).toHaveCount(1);

  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('sso-require')).not.toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'sso-settings-platform-en');
});

for (const [brand, language] of [
  ['platform', 'vi'],
  ['locker', 'en'],
  ['locker', 'vi'],
] as const) {
  test(`the settings in the ${brand} brand, ${language}`, async ({ page, context }) => {
    const base = brand === 'locker' ? server.lockerUrl : server.platformUrl;
    await setLanguage(context, language);
    // Signed in from the page itself: Chromium resolves *.localhost, Node's resolver may not.
    await page.goto(`${base}/login`);
    const status = await page.evaluate(async (account) => {
      const response = await fetch('/v3/sso/auth', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account), credentials: 'include' });
      return response.status;
    }, { email: owner.email, password: owner.password });
    expect(status).toBe(200);
    await page.goto(`${base}/organization/sso`);
    await expect(page.getByTestId('sso-domain')).toHaveCount(1);
    await expect(page.getByTestId('sso-registration')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, `sso-settings-${brand}-${language}`);
    // A wide desktop, then a phone: there the domain is a card with its actions full width, nothing scrolls sideways.
    await page.setViewportSize({ width: 1440, height: 900 });
    await snap(page, `sso-settings-${brand}-${language}-1440`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('sso-domains').locator('thead')).toHaveCSS('position', 'absolute');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, `sso-settings-${brand}-${language}-390`);
  });
}

test("the changes are in the organization's audit log, in words (en and vi)", async ({ page, context }) => {
  await signIn(context, server.platformUrl, owner);
  for (const [language, words] of [
    ['en', ['SSO identity provider set', 'SSO domain added', 'SSO domain verified', 'SSO domain removed', 'Verified by DNS TXT record', 'Verified by mailed code', 'Domain: legacy-acme.test']],
    ['vi', ['Đặt nhà cung cấp danh tính SSO', 'Thêm tên miền SSO', 'Xác minh tên miền SSO', 'Xóa tên miền SSO', 'Xác minh bằng bản ghi DNS TXT']],
  ] as const) {
    await setLanguage(context, language);
    await page.goto(`${server.platformUrl}/organization/audit-log`);
    const rows = page.getByTestId('audit-row');
    await expect(rows.first()).toBeVisible();
    // The provider was set once (the SAML attempt was refused). Requiring SSO comes last (below): its entry is the audit page's unit test's.
    await expect(page.locator('[data-testid="audit-row"][data-action="sso_provider_set"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="audit-row"][data-action="sso_provider_changed"]')).toHaveCount(0);
    const text = (await page.getByTestId('audit-row').allTextContents()).join('\n');
    for (const word of words) expect(text, word).toContain(word);
    expect(text).not.toContain('acme-client-secret-0123456789');
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, `sso-audit-log-platform-${language}`);
  }
});

test('a plain member sees neither the entry nor the settings', async ({ page, context }) => {
  await signIn(context, server.platformUrl, member);
  await page.goto(`${server.platformUrl}/`);
  await expect(page.getByRole('link', { name: 'Organization' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Company SSO' })).toHaveCount(0);
  await page.goto(`${server.platformUrl}/organization/sso`);
  await expect(page.getByTestId('sso-settings-refused')).toHaveText('Only the owners and admins of an organization can see its SSO settings.');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'sso-settings-member-platform-en');
});

test('requiring SSO asks for a sign-in through the identity provider first: on a password session it is refused and nothing changes', async ({ page, context }) => {
  await signIn(context, server.platformUrl, owner);
  await page.goto(`${server.platformUrl}/organization/sso`);
  await page.getByTestId('sso-require').click({ force: true });
  await expect(page.getByText('Sign in with company SSO first, then require it: that shows the identity provider works, and you stay signed in')).toBeVisible();
  await expect(page.getByTestId('sso-require')).not.toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, 'sso-settings-require-refused-platform-en');
  // Still signed in, and members may still use their passwords.
  await page.reload();
  await expect(page).toHaveURL(/\/organization\/sso$/);
  expect(await postFromPage(page, '/v3/sso/auth', { email: member.email, password: member.password })).toBe(200);
});
