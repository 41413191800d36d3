import { createPrivateKey, createPublicKey, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { ExternalSigningKey } from 'oidc-provider';

/**
 * A signing key of ours (keys.ts) that signs with node:crypto's synchronous `sign`: 26 µs of
 * CPU for an ES256 signature, against 80 µs through jose's webcrypto (a thread-pool job and
 * its promise), on every code and refresh grant's ID token. oidc-provider takes such keys as
 * ExternalSigningKey (the experimental `externalSigningSupport`, acknowledged in provider.ts: a
 * version that changes it fails at start, in every test).
 */
export class LocalSigningKey extends ExternalSigningKey {
  readonly #kid: string | undefined;
  readonly #alg: string | undefined;
  readonly #private: KeyObject;
  readonly #public: KeyObject;

  constructor(jwk: JWK) {
    super();
    this.#kid = jwk.kid;
    this.#alg = jwk.alg;
    this.#private = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    this.#public = createPublicKey(this.#private);
  }

  override get kid() {
    return this.#kid;
  }

  override get alg() {
    return this.#alg;
  }

  override keyObject(): KeyObject {
    return this.#public;
  }

  override sign(data: Uint8Array): Uint8Array {
    // JWS's ES256 is the raw r||s pair (IEEE P1363), not DER.
    return sign('sha256', data, this.#alg?.startsWith('ES') ? { key: this.#private, dsaEncoding: 'ieee-p1363' } : this.#private);
  }
}
