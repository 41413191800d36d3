import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../../platform/crypto';

/**
 * AppSumo license codes: `<payload>.<signature>`, the payload (base64url JSON) naming the plan,
 * an expiry and a nonce, signed with HMAC-SHA256 under the license key. A code is checked
 * without a table; its redemption is recorded by hash so it grants its plan once.
 */
export interface License {
  plan: string;
  /** Seconds since the epoch after which the code is refused. */
  expiresAt: number;
}

const sign = (payload: string, secret: string) => createHmac('sha256', secret).update(`appsumo-license:${payload}`).digest('base64url');

export function issueLicense(license: License, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ p: license.plan, e: license.expiresAt, n: randomBytes(9).toString('base64url') })).toString('base64url');
  return `${payload}.${sign(payload, secret)}`;
}

/** The license of a well-signed, unexpired code; null otherwise. */
export function verifyLicense(code: string, secret: string, now: Date): License | null {
  const [payload, signature, extra] = code.split('.');
  if (!payload || !signature || extra !== undefined || !safeEqual(signature, sign(payload, secret))) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; e?: unknown };
    if (typeof parsed.p !== 'string' || typeof parsed.e !== 'number') return null;
    if (parsed.e * 1000 <= now.getTime()) return null;
    return { plan: parsed.p, expiresAt: parsed.e };
  } catch {
    return null;
  }
}
