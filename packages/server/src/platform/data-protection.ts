import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest under one server-side key (DATA_ENCRYPTION_KEY, or a generated file beside
 * the embedded database): a copy of the database alone no longer yields TOTP seeds, and a
 * recovery code cannot be found from its stored hash by hashing every possible code.
 */
export interface DataProtection {
  /** AES-256-GCM; the result names its format (`v1:`), so plain values from before still read. */
  seal(plaintext: string): string;
  /** The value `seal` was given; a value without the format prefix is returned as it is (stored before sealing). */
  open(stored: string): string;
  isSealed(stored: string): boolean;
  /** HMAC-SHA256 under the key, for values that are compared, never read back (`k1:` + hex). */
  keyedHash(value: string): string;
  isKeyedHash(stored: string): boolean;
}

const SEALED = 'v1:';
const KEYED = 'k1:';
/** Where the embedded default keeps its generated key, inside DATA_DIR. */
export const DATA_KEY_FILE = 'data-encryption.key';

/**
 * A sealed value this key does not open: it was sealed under another data key (a changed
 * DATA_ENCRYPTION_KEY, or a key file lost or replaced), or altered since.
 */
export class DataKeyMismatch extends Error {
  constructor() {
    super(`secrets stored in the database do not open with this data key: they were sealed under another DATA_ENCRYPTION_KEY (or DATA_DIR/${DATA_KEY_FILE}), or altered. Start with the key this database was written with.`);
    this.name = 'DataKeyMismatch';
  }
}

/** Reads a key written as 64 hex digits or as base64 of 32 bytes. */
export function parseDataKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** AES-GCM's full tag. */
const TAG_BYTES = 16;

export function createDataProtection(key: Buffer): DataProtection {
  // Separate keys per use, so one can never be turned against the other.
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), label, 32));
  const encryptionKey = derive('portal data encryption v1');
  const hashKey = derive('portal keyed hash v1');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${SEALED}${iv.toString('base64url')}:${body.toString('base64url')}`;
    },
    open(stored) {
      if (!stored.startsWith(SEALED)) return stored;
      const [iv = '', body = ''] = stored.slice(SEALED.length).split(':');
      const bytes = Buffer.from(body, 'base64url');
      // The tag is always 16 bytes: a shorter one would be checked only as far as it goes.
      if (bytes.length < TAG_BYTES) throw new DataKeyMismatch();
      try {
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        // GCM's own words ("Unsupported state or unable to authenticate data") name no cause an operator can act on.
        throw new DataKeyMismatch();
      }
    },
    isSealed: (stored) => stored.startsWith(SEALED),
    keyedHash: (value) => `${KEYED}${createHmac('sha256', hashKey).update(value).digest('hex')}`,
    isKeyedHash: (stored) => stored.startsWith(KEYED),
  };
}

/**
 * The key: DATA_ENCRYPTION_KEY when set (config.ts checks it and requires it with PostgreSQL
 * in production, where every node must share it); otherwise `DATA_DIR/data-encryption.key`,
 * generated on first start (readable by the server's user only). Back that file up with the
 * database: without it, TOTP seeds cannot be read and recovery codes no longer match.
 */
/** The two settings the key comes from (a structural type: platform code does not import config.ts, which imports this file). */
export interface DataKeySettings {
  readonly DATA_ENCRYPTION_KEY?: string;
  readonly DATA_DIR: string;
}

export function loadDataKey(config: DataKeySettings): Buffer {
  if (config.DATA_ENCRYPTION_KEY) return parseDataKey(config.DATA_ENCRYPTION_KEY)!;
  const file = path.join(config.DATA_DIR, DATA_KEY_FILE);
  try {
    const stored = parseDataKey(readFileSync(file, 'utf8'));
    if (stored) return stored;
    throw new Error(`${file} does not hold a 32-byte key`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  mkdirSync(config.DATA_DIR, { recursive: true });
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
