import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { sha256 } from '../../platform/crypto';

/** RFC 6238 as every authenticator app speaks it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Accepted clock drift: one step either side of now, never two. */
export const TOTP_DRIFT_STEPS = 1;

/** A new TOTP secret: 20 random bytes (160 bits, RFC 4226's recommendation), Base32. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI an authenticator app scans. */
export function totpUri(issuer: string, account: string, secret: string): string {
  return generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

/** The QR code of a URI as an SVG data URL, ready for an <img src>. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * The time step a TOTP code belongs to, within ±1 step of `now` and strictly after
 * `afterStep` (the last accepted one); null when the code does not match.
 */
export async function matchTotp(secret: string, code: string, now: Date, afterStep: number | null = null): Promise<number | null> {
  try {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      period: TOTP_PERIOD_SECONDS,
      digits: TOTP_DIGITS,
      algorithm: 'sha1',
      epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
      ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** Crockford's base32: no I, L, O or U, so codes read aloud and typed by hand survive. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RECOVERY_CODE_COUNT = 10;

/** A recovery code: 10 Crockford base32 characters (50 bits), shown as XXXXX-XXXXX. */
export function newRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < 10; index += 1) code += CROCKFORD[randomInt(CROCKFORD.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A typed recovery code as stored: upper case, no separator, Crockford's look-alikes folded. */
export function normalizeRecoveryCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

/** How a recovery code is stored: SHA-256 of its normal form (50 random bits need no slow hash). */
export function recoveryCodeHash(input: string): string {
  return sha256(`recovery:${normalizeRecoveryCode(input)}`);
}
