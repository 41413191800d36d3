import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { demoAccount, signIn } from './support/auth';
import { e2eEnv } from './support/env';
import { snap } from './support/helpers';

/**
 * Security hardening as a browser meets it: a page of another site that makes the signed-in
 * browser POST to the portal is refused with 403, and the session survives it.
 */

const { platformUrl } = e2eEnv();

/** A page on another site (evil.localhost, its own port) that submits a form to the portal on load. */
async function attackerSite(target: string): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><title>Win a prize</title>
<form id="f" method="POST" action="${target}"><input name="x" value="1"></form>
<script>document.getElementById('f').submit()</script>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://evil.localhost:${(server.address() as AddressInfo).port}/`, server };
}

test('a cross-site POST from another site is refused with 403 and the session survives', async ({ context, page }) => {
  const account = demoAccount();
  test.skip(!account, 'needs the demo account');
  await signIn(context, platformUrl, account!);
  const attacker = await attackerSite(`${platformUrl}/v3/sso/logout`);
  try {
    const answered = page.waitForResponse((response) => response.url() === `${platformUrl}/v3/sso/logout`);
    await page.goto(attacker.url);
    const response = await answered;
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'forbidden', details: { reason: 'cross_site_request' } });
    await snap(page, 'hardening-cross-site-refused');
    const me = await context.request.get(`${platformUrl}/v3/sso/me`);
    expect(me.status()).toBe(200);
  } finally {
    attacker.server.close();
  }
});

test('every page says when mail goes to the dev outbox, in both brands and languages', async ({ context, page }) => {
  test.skip(process.env.E2E_SMTP === '1', 'the server sends real mail in this run: no dev outbox');
  const { lockerUrl } = e2eEnv();
  for (const [origin, brand] of [[platformUrl, 'platform'], [lockerUrl, 'locker']] as const) {
    for (const language of ['en', 'vi'] as const) {
      await context.addCookies([{ name: 'lang', value: language, url: origin }]);
      await page.goto(`${origin}/login`);
      const banner = page.getByTestId('dev-outbox-banner');
      await expect(banner).toBeVisible();
      await expect(banner).toContainText(language === 'en' ? 'mail is not sent' : 'thư không được gửi');
      await expect(banner.getByRole('link')).toHaveAttribute('href', '/dev/outbox');
      await snap(page, `hardening-dev-outbox-banner-${brand}-${language}`);
    }
  }
  // The page it points to is there.
  const outbox = await context.request.get(`${platformUrl}/dev/outbox`);
  expect(outbox.status()).toBe(200);
  // Other pages carry it too.
  await page.goto(`${platformUrl}/register`);
  await expect(page.getByTestId('dev-outbox-banner')).toBeVisible();
});
