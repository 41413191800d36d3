import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';

/**
 * How a product's API checks the access tokens the portal issued for it, on its own: the
 * signature with the portal's published keys (JWKS, fetched once and cached by jose, again
 * when a new key id appears), then the issuer, the audience (this API's resource identifier:
 * a token meant for another API is refused), the type `at+jwt` (RFC 9068: an ID token is not
 * an access token), the expiry, and the scope the call needs.
 */
export interface VerifiedCaller {
  /** The person the token acts for. */
  sub: string;
  /** The app that asked for the token. */
  clientId: string;
  scopes: string[];
}

/** A refusal as RFC 6750 words it: 401 `invalid_token` or 403 `insufficient_scope`. */
export class TokenRefused extends Error {
  // Plain fields, not constructor parameter properties: Node runs this file by stripping types only.
  readonly status: 401 | 403;
  readonly error: 'invalid_token' | 'insufficient_scope';
  constructor(status: 401 | 403, error: 'invalid_token' | 'insufficient_scope', message: string) {
    super(message);
    this.status = status;
    this.error = error;
  }
}

export interface VerifierOptions {
  /** The portal's address; its discovery document names the issuer and the JWKS. */
  portalUrl: string;
  /** This API's resource identifier, as declared at the portal (`resource_servers`). */
  audience: string;
  /** The time tokens are checked at (tests); the clock otherwise. */
  now?: () => Date;
}

export type Verifier = (authorization: string | undefined, requiredScope: string) => Promise<VerifiedCaller>;

export async function accessTokenVerifier(options: VerifierOptions): Promise<Verifier> {
  const discovery = await fetch(new URL('/.well-known/openid-configuration', options.portalUrl));
  if (!discovery.ok) throw new Error(`the portal's discovery answered ${discovery.status}`);
  const { issuer, jwks_uri: jwksUri } = (await discovery.json()) as { issuer: string; jwks_uri: string };
  const keys = createRemoteJWKSet(new URL(jwksUri));

  return async (authorization, requiredScope) => {
    const token = /^Bearer ([\w.~+/-]+=*)$/.exec(authorization ?? '')?.[1];
    if (!token) throw new TokenRefused(401, 'invalid_token', 'a Bearer token is required');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience: options.audience,
        typ: 'at+jwt',
        // Only the portal's asymmetric algorithms: never `none` nor a shared-secret one.
        algorithms: ['ES256', 'RS256'],
        requiredClaims: ['sub', 'exp', 'client_id'],
        currentDate: options.now?.(),
      }));
    } catch (error) {
      const why = error instanceof errors.JWTExpired ? 'the token expired' : error instanceof errors.JOSEError ? `the token is not valid here (${error.code})` : 'the token is not valid here';
      throw new TokenRefused(401, 'invalid_token', why);
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    if (!scopes.includes(requiredScope)) throw new TokenRefused(403, 'insufficient_scope', `the token lacks the scope ${requiredScope}`);
    return { sub: payload.sub!, clientId: String(payload.client_id), scopes };
  };
}
