import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../../platform/crypto';

/**
 * AppSumo license codes: hex of the payload (JSON naming the plan, an expiry and a nonce)
 * followed by 32 hex digits of its HMAC-SHA256 under the license key: nothing but [0-9a-f],
 * so the code rides in a page path (`/confirmation/app/:token`) as it is. A code is checked
 * without a table; its redemption is recorded by hash so it grants its plan once.
 */
export interface License {
  plan: string;
  /** Seconds since the epoch after which the code is refused. */
  expiresAt: number;
}

const SIGNATURE_HEX = 32;
const sign = (payload: string, secret: string) => createHmac('sha256', secret).update(`appsumo-license:${payload}`).digest('hex').slice(0, SIGNATURE_HEX);

export function issueLicense(license: License, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ p: license.plan, e: license.expiresAt, n: randomBytes(6).toString('hex') })).toString('hex');
  return `${payload}${sign(payload, secret)}`;
}

/** The license of a well-signed, unexpired code; null otherwise. */
export function verifyLicense(code: string, secret: string, now: Date): License | null {
  const value = code.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(value) || value.length <= SIGNATURE_HEX || value.length % 2 !== 0) return null;
  const payload = value.slice(0, -SIGNATURE_HEX);
  if (!safeEqual(value.slice(-SIGNATURE_HEX), sign(payload, secret))) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'hex').toString('utf8')) as { p?: unknown; e?: unknown };
    if (typeof parsed.p !== 'string' || typeof parsed.e !== 'number') return null;
    if (parsed.e * 1000 <= now.getTime()) return null;
    return { plan: parsed.p, expiresAt: parsed.e };
  } catch {
    return null;
  }
}
