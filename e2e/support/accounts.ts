import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { createActivatedAccount, expect, test, uniqueEmail, type Portal } from './mail';

/**
 * Accounts for the specs about what a signed-in person does (the account-*.spec.ts files), and
 * the ways of signing a browser in or choosing its language that those and the identity-*.spec.ts
 * files share.
 */

/** The password of every account newAccount makes. */
export const PASSWORD = 'Orchid-Lantern-Harbor-58';

export interface Account {
  email: string;
  password: string;
  fullName: string;
}

/** An activated account of its own (made through the API, its activation link read from the mail). */
export async function newAccount(request: APIRequestContext, portal: Portal, label: string, origin = portal.platformUrl): Promise<Account> {
  const account = { email: uniqueEmail(label), password: PASSWORD, fullName: 'Ada Lovelace' };
  await createActivatedAccount(request, portal, account, origin);
  return account;
}

/**
 * One account for the tests of a describe block (sign-ups are limited to 10 an hour per IP,
 * and every spec on the server signs up from 127.0.0.1). Call it in a block whose tests run in
 * order in one worker (`test.describe.configure({ mode: 'default' })` in the spec, where
 * playwright.config.ts looks for it): a later test may rely on what an earlier one changed.
 */
export function sharedAccount(label: string): () => Account {
  let account: Account | undefined;
  test.beforeAll(async ({ portal, playwright }) => {
    const request = await playwright.request.newContext();
    account = await newAccount(request, portal, label);
    await request.dispose();
  });
  return () => {
    if (!account) throw new Error('the shared account was not created');
    return account;
  };
}

/** Signs the browser context in through the API: the session cookie lands in its jar. */
export async function signIn(context: BrowserContext, origin: string, account: Pick<Account, 'email' | 'password'>, language: 'en' | 'vi' = 'en'): Promise<void> {
  const response = await context.request.post(`${origin}/v3/sso/auth`, { data: { email: account.email, password: account.password } });
  expect(response.status(), await response.text()).toBe(200);
  // The page's language is the visitor's choice (lang cookie), whatever a previous test saved on the account.
  await context.addCookies([{ name: 'lang', value: language, url: origin }]);
}

/**
 * Signs a page in from inside the browser: Node (and so APIRequestContext) cannot resolve
 * locker.localhost, Chromium can (e2e/support/chromium.ts).
 */
export async function signInInBrowser(page: Page, origin: string, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.goto(`${origin}/login/explore`);
  const status = await page.evaluate(
    async ({ email, password }) => (await fetch('/v3/sso/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
    { email: account.email, password: account.password },
  );
  expect(status).toBe(200);
}

/** Signs in the way a person does: /login, the identifier, Continue, the password, Sign in. */
export async function signInThroughPages(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email or username').fill(identifier);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/login\/password/);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The language of the pages of both brands (the lang cookie), for a visitor not signed in. */
export async function setLanguage(context: BrowserContext, portal: Portal, language: 'en' | 'vi'): Promise<void> {
  await context.addCookies([portal.platformUrl, portal.lockerUrl].map((url) => ({ name: 'lang', value: language, url })));
}

/** The notification (Mantine's toast) that says `text`. */
export const toast = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text });
