import { eq } from 'drizzle-orm';
import { operatorRoles, users } from '../src/db/schema';
import type { identityClient } from './identity';
import type { TestServer } from './harness';

export type Method = 'GET' | 'POST' | 'DELETE';

/** Calls the server as an operator's browser or key would (a bearer token, or none). */
export const adminCall = (server: TestServer, token: string | undefined, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, headers: { 'user-agent': 'operator-test', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(payload ? { payload } : {}) });

export const codeOf = (response: { json(): unknown }) => (response.json() as { code?: string }).code;

/** A signed-in person (a fresh proof of identity) with two-step on and these operator roles; answers their session and id. */
export async function operator(server: TestServer, client: ReturnType<typeof identityClient>, email: string, roles: Array<'owner' | 'support' | 'finance'>, twoFactor = true) {
  const session = await client.registeredUser(email);
  const db = server.database.db;
  if (twoFactor) await db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.email, email));
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  for (const role of roles) await db.insert(operatorRoles).values({ userId: row!.id, role });
  return { session, id: row!.id };
}
