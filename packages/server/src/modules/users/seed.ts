import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { randomToken } from '../../platform/crypto';
import { hashPassword } from '../../platform/passwords';
import { userQueries } from './queries';

export const DEMO_EMAIL = 'demo@example.com';

/**
 * Creates the demo account on first start. Its random password is returned once, to be
 * printed once; later starts find the account and return nothing.
 */
export async function seedDemoAccount(db: Database, clock: Clock): Promise<{ email: string; password: string } | null> {
  const queries = userQueries(db);
  if (await queries.findByEmail(DEMO_EMAIL)) return null;
  const password = randomToken(12);
  const now = clock.now();
  const inserted = await queries.insert({
    id: randomUUID(),
    email: DEMO_EMAIL,
    username: 'demo',
    fullName: 'Demo User',
    passwordHash: await hashPassword(password),
    activatedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return inserted ? { email: DEMO_EMAIL, password } : null;
}
