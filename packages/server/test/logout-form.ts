import type { TestBrowser } from './browser';

/** Answers yes in `browser` to the provider's logout form (`html`, its page, served at `origin`): where the browser lands. */
export async function confirmLogout(browser: TestBrowser, html: string, origin: string): Promise<URL> {
  const xsrf = html.match(/name="xsrf" value="([^"]+)"/)![1]!;
  const action = html.match(/action="([^"]+)"/)![1]!;
  const { url } = await browser.walk(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
  return url;
}
