import { randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '../../packages/server/src/db/client';
import type { RunningApp } from './context';

/** An activated account with a password, and the device id its client sends. */
export interface BenchAccount {
  email: string;
  password: string;
  deviceId: string;
}

/** What a browser sends with every API call: JSON, a user agent and its device id. */
export function clientHeaders(account: BenchAccount): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    // DEVICE_ID_HEADER of @portal/contracts: a returning browser, so a sign-in is not a "new device" alert each time.
    'device-id': account.deviceId,
  };
}

/**
 * Inserts `count` activated accounts into the real app's database the way seedDemoAccount
 * does (hashPassword with ARGON2_PARAMS, activatedAt set): sign-up needs a captcha and a
 * mailed link, and allows 10 per IP an hour. `real` is a running app in this process, or a
 * migrated database a server process will open (`startPortalProcess`'s `seed`).
 */
export async function seedAccounts(real: { database?: DatabaseHandle }, label: string, count: number): Promise<BenchAccount[]> {
  if (!real.database) throw new Error('the real app exposes no database');
  const { createUserService } = await import('../../packages/server/src/modules/users');
  const { hashPassword } = await import('../../packages/server/src/platform/passwords');
  const queries = createUserService(real.database.db);
  const run = randomBytes(4).toString('hex');
  const accounts: BenchAccount[] = [];
  for (let i = 0; i < count; i++) {
    const account = { email: `bench-${label}-${run}-${i}@example.com`, password: `bench-${randomBytes(12).toString('base64url')}`, deviceId: `bench-${label}-${run}-${i}` };
    const now = new Date();
    const inserted = await queries.insert({
      id: randomUUID(),
      email: account.email,
      fullName: `Bench User ${i}`,
      passwordHash: await hashPassword(account.password),
      activatedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    if (!inserted) throw new Error(`account ${account.email} not inserted`);
    accounts.push(account);
  }
  return accounts;
}

/** POST /v3/sso/auth as the web app does; returns the session token. */
export async function signIn(real: Pick<RunningApp, 'url'>, account: BenchAccount): Promise<string> {
  const response = await fetch(`${real.url}/v3/sso/auth`, {
    method: 'POST',
    headers: clientHeaders(account),
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const body = (await response.json()) as { token?: string };
  if (response.status !== 200 || !body.token) throw new Error(`sign-in answered ${response.status}: ${JSON.stringify(body)}`);
  return body.token;
}
