import { createHmac, randomBytes } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { createMemoryRateLimiter } from '../rate-limit/memory';
import type { RateLimiter } from '../rate-limit/types';
import { MAX_ANSWER_LENGTH, type CaptchaVerifier } from './types';

export interface AltchaOptions {
  /** Signs challenges. Without one (development), a random key is made at start. */
  hmacKey?: string;
  /**
   * Remembers solved challenges until they expire, so each verifies once. Pass the app's
   * limiter (Redis when configured) so a payload used on one node is refused by the others;
   * by default an in-process store.
   */
  replayStore?: RateLimiter;
  expiresInSeconds?: number;
  /** PBKDF2 iterations per attempt. */
  cost?: number;
  /** The solver's number of attempts is drawn from this range. */
  counterRange?: readonly [min: number, max: number];
}

/**
 * ALTCHA v2 proof of work (the protocol of the `altcha` 3.x widget). Difficulty: PBKDF2/SHA-256
 * — the library's default algorithm; each attempt is one native WebCrypto call in the browser,
 * so JavaScript overhead gives a bot little advantage — at 1,000 iterations per attempt and
 * 50-250 attempts: ~50 ms on one Node core, a fraction of a second in a browser, which is
 * plenty to make bulk sign-up or password guessing cost real CPU.
 *
 * Deterministic mode: the server derives the key for a random counter, publishes half of it as
 * the prefix to find, and signs the full key, so verifying is two HMACs and no key derivation.
 */
export const ALTCHA_DEFAULTS = { expiresInSeconds: 600, cost: 1000, counterRange: [50, 250] } as const;

/** What the widget submits: base64 of JSON { challenge, solution }. */
const payloadSchema = z.object({
  challenge: z.object({ parameters: z.record(z.string(), z.unknown()), signature: z.string().max(256) }),
  solution: z.object({ counter: z.number(), derivedKey: z.string().max(1024) }),
});

function parsePayload(answer: string): z.infer<typeof payloadSchema> | null {
  try {
    return payloadSchema.parse(JSON.parse(Buffer.from(answer, 'base64').toString('utf8')));
  } catch {
    return null;
  }
}

export function createAltchaVerifier(options: AltchaOptions = {}): CaptchaVerifier {
  const hmacKey = options.hmacKey ?? randomBytes(32).toString('hex');
  // A second secret, derived from the first, signs the expected key (deterministic mode).
  const keySignatureSecret = createHmac('sha256', hmacKey).update('altcha-key-signature').digest('hex');
  const expiresIn = options.expiresInSeconds ?? ALTCHA_DEFAULTS.expiresInSeconds;
  const cost = options.cost ?? ALTCHA_DEFAULTS.cost;
  const [minCounter, maxCounter] = options.counterRange ?? ALTCHA_DEFAULTS.counterRange;
  const replayStore = options.replayStore ?? createMemoryRateLimiter();

  return {
    provider: 'altcha',
    challenge: () =>
      createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost,
        counter: randomInt(maxCounter, minCounter),
        deriveKey,
        expiresAt: new Date(Date.now() + expiresIn * 1000),
        hmacSignatureSecret: hmacKey,
        hmacKeySignatureSecret: keySignatureSecret,
      }),

    async verify(answer) {
      if (!answer || answer.length > MAX_ANSWER_LENGTH) return false;
      const payload = parsePayload(answer);
      if (!payload) return false;
      const { challenge, solution } = payload;
      // Only challenges we issue: right algorithm, an expiry, and the key signature that lets
      // us verify without re-deriving (a tampered field breaks the HMAC anyway).
      const { algorithm, expiresAt, keySignature } = challenge.parameters;
      if (algorithm !== 'PBKDF2/SHA-256' || typeof expiresAt !== 'number' || typeof keySignature !== 'string') return false;
      try {
        const result = await verifySolution({
          challenge: challenge as unknown as Challenge,
          solution: { counter: solution.counter, derivedKey: solution.derivedKey },
          deriveKey,
          hmacSignatureSecret: hmacKey,
          hmacKeySignatureSecret: keySignatureSecret,
        });
        if (!result.verified) return false;
      } catch {
        return false;
      }
      // Verified: now spend it. The signature is unique per challenge and covered by the HMAC;
      // remembering it until the challenge expires is enough, since it is refused after that.
      const secondsLeft = Math.max(1, Math.ceil(expiresAt - Date.now() / 1000));
      try {
        const spent = await replayStore.consume(`altcha:used:${challenge.signature}`, { limit: 1, windowSeconds: secondsLeft });
        return spent.allowed;
      } catch {
        return false; // the store is unreachable: refuse rather than allow replays
      }
    },
  };
}
