import type { BrowserContext } from '@playwright/test';

/** The demo account the server seeds in development (its password is read from the server log by the global setup). */
export function demoAccount(): { email: string; password: string } | null {
  const email = process.env.E2E_DEMO_EMAIL;
  const password = process.env.E2E_DEMO_PASSWORD;
  return email && password ? { email, password } : null;
}

/**
 * Signs `context` in through the API (POST /v3/sso/auth); the server's Set-Cookie lands in
 * the context's cookie jar, so pages opened afterwards are signed in.
 */
export async function signIn(context: BrowserContext, baseUrl: string, account: { email: string; password: string }): Promise<void> {
  const response = await context.request.post(`${baseUrl}/v3/sso/auth`, {
    data: { email: account.email, password: account.password },
  });
  if (!response.ok()) throw new Error(`sign-in as ${account.email} failed: ${response.status()} ${await response.text()}`);
}
