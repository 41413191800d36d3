import { randomUUID } from 'node:crypto';
import { VERIFICATION_CODE_LENGTH } from '@portal/contracts';
import type { Database } from '../../db/client';
import type { Clock } from '../clock';
import { randomDigits, randomToken, safeEqual, sha256 } from '../crypto';
import { limits, rateKey, rateLimited, type RateLimiter } from '../rate-limit';
import { oneTimeTokenQueries, type OneTimeTokenRow } from './queries';

/** Wrong guesses a mailed code tolerates before it is dead. */
export const CODE_MAX_ATTEMPTS = 5;

export interface IssueOptions {
  /** What the token carries (an address to confirm, the credentials of a registration...). */
  payload?: Record<string, unknown>;
  /** Older live tokens of the purpose die (default); activation links keep theirs. */
  retireOthers?: boolean;
}

/**
 * A 6-digit code is stored salted with its row id: hashes of short codes would otherwise
 * collide across users (and with old rows) in the unique (purpose, hash) index.
 */
const codeHash = (tokenId: string, code: string) => sha256(`code:${tokenId}:${code}`);

export type OneTimeTokens<Purpose extends string> = ReturnType<typeof createOneTimeTokens<Purpose>>;

/**
 * The one-time tokens every module mails or hands out, in two shapes: links (256 random
 * bits, stored as SHA-256, found by the secret alone) and 6-digit codes (found per user,
 * salted, attempt-limited). Issuing, claiming and guessing work the same for activation,
 * reset, email change, email sign-in and the rest; only the purpose and the mail differ.
 * `Purpose` narrows the purposes a module may touch.
 */
export function createOneTimeTokens<Purpose extends string>(deps: { db: Database; clock: Clock; limiter?: RateLimiter }) {
  const { clock } = deps;
  const queries = oneTimeTokenQueries<Purpose>(deps.db);
  const expiry = (now: Date, ttlSeconds: number) => new Date(now.getTime() + ttlSeconds * 1000);

  return {
    /** A new link secret of a purpose; only its hash is kept. */
    async issueLink(userId: string, purpose: Purpose, ttlSeconds: number, options: IssueOptions = {}): Promise<string> {
      const secret = randomToken();
      const now = clock.now();
      if (options.retireOthers ?? true) await queries.retireTokens(userId, purpose, now);
      await queries.insertToken({ id: randomUUID(), userId, purpose, tokenHash: sha256(secret), payload: options.payload ?? null, expiresAt: expiry(now, ttlSeconds) });
      return secret;
    },

    /** Uses up a live link: exactly one caller of a race gets the row. */
    claimLink: (purpose: Purpose, secret: string): Promise<OneTimeTokenRow | undefined> => queries.claimToken(purpose, sha256(secret), clock.now()),

    /** A live link, left live (a page checking that its link still works). */
    findLink: (purpose: Purpose, secret: string): Promise<OneTimeTokenRow | undefined> => queries.findLiveToken(purpose, sha256(secret), clock.now()),

    /** A new 6-digit code of a purpose; older live ones die. */
    async issueCode(userId: string, purpose: Purpose, ttlSeconds: number, payload?: Record<string, unknown>): Promise<string> {
      const code = randomDigits(VERIFICATION_CODE_LENGTH);
      const now = clock.now();
      const id = randomUUID();
      await queries.retireTokens(userId, purpose, now);
      await queries.insertToken({ id, userId, purpose, tokenHash: codeHash(id, code), payload: payload ?? null, expiresAt: expiry(now, ttlSeconds) });
      return code;
    },

    /**
     * Uses up the newest live code of a purpose when `code` matches it; undefined otherwise.
     * Single use, expiring, dead after CODE_MAX_ATTEMPTS guesses. Each guess is taken from the
     * code in one statement before the code is compared, so parallel guesses check at most
     * CODE_MAX_ATTEMPTS; and every wrong guess also spends the account's budget across codes
     * (`code:fail`), which a new code does not renew: refused with 429 once it is spent.
     * `unknownSubject` (the email or name typed) keeps the budget when nobody has the account,
     * so the answers do not tell accounts apart. Every guess runs the same queries.
     */
    async useCode(userId: string | undefined, purpose: Purpose, code: string, unknownSubject?: string): Promise<OneTimeTokenRow | undefined> {
      const limiter = deps.limiter;
      if (!limiter) throw new Error('checking a code needs the rate limiter (the per-account budget)');
      const budgetKey = rateKey(limits.codeFailuresPerAccount, userId ?? `unknown:${unknownSubject ?? randomUUID()}`);
      rateLimited(await limiter.consume(budgetKey, limits.codeFailuresPerAccount));
      const taken = await queries.takeLatestAttempt(userId ?? randomUUID(), purpose, clock.now(), CODE_MAX_ATTEMPTS);
      const matches = safeEqual(taken?.tokenHash ?? sha256(randomToken()), codeHash(taken?.id ?? randomUUID(), code));
      if (taken && matches && (await queries.markTokenUsed(taken.id, clock.now()))) {
        // A right code is not a failure: its reservation of the budget is returned.
        await limiter.refund(budgetKey);
        return taken;
      }
      return undefined;
    },

    /** The newest live token of a purpose for a user. */
    latest: (userId: string, purpose: Purpose): Promise<OneTimeTokenRow | undefined> => queries.latestLiveToken(userId, purpose, clock.now()),
    /** Every live token of a purpose dies (a new password retires the reset codes). */
    retire: (userId: string, purpose: Purpose): Promise<void> => queries.retireTokens(userId, purpose, clock.now()),
    /** Counts a wrong guess against a token found earlier; returns the attempts so far. */
    countAttempt: (tokenId: string): Promise<number> => queries.countAttempt(tokenId),
    /** Takes one of CODE_MAX_ATTEMPTS guesses at a token found earlier, atomically; false when none is left. */
    takeAttempt: (tokenId: string): Promise<boolean> => queries.takeAttempt(tokenId, clock.now(), CODE_MAX_ATTEMPTS),
    /** Uses up a token found earlier: exactly one caller of a race gets true. */
    markUsed: (tokenId: string): Promise<boolean> => queries.markTokenUsed(tokenId, clock.now()),
  };
}
