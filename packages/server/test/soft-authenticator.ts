import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for tests: real P-256 keys, real CBOR attestation objects
 * (fmt "none") and real ES256 assertions, exactly what a browser hands the server.
 */

type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue> | { [key: string]: CborValue };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  }
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** A minimal CBOR encoder (RFC 8949): unsigned and negative ints, byte and text strings, arrays, maps. */
export function cbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error('only integers');
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Buffer;
  userHandle: string;
  counter: number;
}

export interface CeremonyOverrides {
  /** The origin the "browser" reports (default: the authenticator's). */
  origin?: string;
  /** Sign this challenge instead of the one in the options. */
  challenge?: string;
  /** Hash this RP ID into authenticator data instead of the authenticator's. */
  rpID?: string;
  /** Counter to report (assertions); default: one more than the last. */
  counter?: number;
  /** Report no user verification. */
  userNotVerified?: boolean;
  /** Assert with this credential (default: the last one registered). */
  credentialId?: string;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  /** Starts at 0 and counts up, as a hardware key does; passkey managers often always send 0. */
  constructor(
    readonly origin: string,
    readonly rpID = new URL(origin).hostname,
  ) {}

  private authData(rpID: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter, 0);
    return Buffer.concat([sha256(rpID), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): answers creation options with a new ES256 credential. */
  register(options: Record<string, unknown>, overrides: CeremonyOverrides = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<CborValue, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length, 0);
    const attested = Buffer.concat([Buffer.alloc(16) /* aaguid */, idLength, id, cose]);
    const flags = FLAG_UP | FLAG_AT | (overrides.userNotVerified ? 0 : FLAG_UV);
    const authData = this.authData(overrides.rpID ?? this.rpID, flags, 0, attested);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    const user = options.user as { id: string };
    const clientDataJSON = this.clientData('webauthn.create', overrides.challenge ?? String(options.challenge), overrides.origin ?? this.origin);
    this.credentials.push({ id, privateKey, cose, userHandle: user.id, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal', 'hybrid'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): signs request options with a stored credential. */
  assert(options: Record<string, unknown>, overrides: CeremonyOverrides = {}) {
    const credential = overrides.credentialId
      ? this.credentials.find((item) => b64url(item.id) === overrides.credentialId)
      : this.credentials[this.credentials.length - 1];
    if (!credential) throw new Error('no credential registered');
    credential.counter = overrides.counter ?? credential.counter + 1;
    const flags = FLAG_UP | (overrides.userNotVerified ? 0 : FLAG_UV);
    const authData = this.authData(overrides.rpID ?? this.rpID, flags, credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', overrides.challenge ?? String(options.challenge), overrides.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
