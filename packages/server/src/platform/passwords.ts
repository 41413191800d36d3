import { createRequire } from 'node:module';
import { createArgon2Threads } from './argon2-threads';

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/** OWASP's argon2id profile: m=19456 KiB, t=2, p=1. */
export const ARGON2_PARAMS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** argon2 runs on threads of its own, one per core (argon2-threads.ts says why). */
const argon2 = createArgon2Threads();

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_PARAMS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** True when a stored hash was made with other parameters and should be replaced at sign-in. */
export function needsRehash(passwordHash: string): boolean {
  const { memoryCost, timeCost, parallelism } = ARGON2_PARAMS;
  return !passwordHash.startsWith(`$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$`);
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the time of one real verification when there is no account, so a stranger cannot
 * tell unknown emails from known ones by the clock.
 */
export async function burnVerificationTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('timing-equalizer-not-a-password');
  await verifyPassword(await dummyHash, password);
}

const require = createRequire(import.meta.url);
let common: Set<string> | undefined;
/**
 * The shipped list of common and breached passwords (zxcvbn-ts's 49k "passwords-common",
 * drawn from breach corpora). Compared case-insensitively.
 */
export function isCommonPassword(password: string): boolean {
  if (!common) {
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    common = new Set(dictionary['passwords-common']!.map((word) => word.toLowerCase()));
  }
  return common.has(password.toLowerCase());
}
