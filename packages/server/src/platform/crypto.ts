import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An opaque random token, URL-safe. 32 bytes = 256 bits. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A numeric code of `length` digits from a uniform CSPRNG draw (leading zeros kept). */
export function randomDigits(length: number): string {
  let code = '';
  for (let index = 0; index < length; index += 1) code += String(randomInt(10));
  return code;
}

/**
 * SHA-256 hex: how tokens and codes are stored. High-entropy tokens need no slow hash.
 * The one-shot `hash` (no Hash object) matters here: every authenticated request runs it.
 */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant-time string comparison (lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = hash('sha256', a, 'buffer');
  const right = hash('sha256', b, 'buffer');
  return timingSafeEqual(left, right);
}
