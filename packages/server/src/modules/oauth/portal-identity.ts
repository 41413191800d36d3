import type { IncomingMessage } from 'node:http';

/** The portal session a provider request came with (read by the Fastify route that hands the request over). */
export interface PortalIdentity {
  sessionId: string;
  userId: string;
  amr: string[];
  authTime: Date;
  /** Set-Cookie values that sign the browser out of the portal (RP-initiated logout). */
  clearCookies: string[];
  /** Ends the portal session (RP-initiated logout ends the one session). */
  signOut(): Promise<void>;
}

/** Per raw request: set by the hand-over, read by the provider's checks and middleware. */
export const portalIdentities = new WeakMap<IncomingMessage, PortalIdentity | null>();

/** ACR values: one factor, or more than one (RFC 8176's `mfa`, or a user-verified passkey). */
export const ACR_SINGLE = 'urn:portal:loa:1';
export const ACR_MULTI = 'urn:portal:loa:2';
export const acrFor = (amr: readonly string[]) => (amr.includes('mfa') || (amr.includes('hwk') && amr.includes('user')) ? ACR_MULTI : ACR_SINGLE);

/**
 * Whether an authorization request accepts only more than one factor: `acr_values` naming
 * loa:2 and not loa:1, or an essential `acr` claim whose values are loa:2 only.
 */
export function multiFactorRequired(params: { acr_values?: unknown; claims?: unknown }): boolean {
  const acceptsOnlyMulti = (values: readonly unknown[]) => values.includes(ACR_MULTI) && !values.includes(ACR_SINGLE);
  if (typeof params.acr_values === 'string' && acceptsOnlyMulti(params.acr_values.split(' '))) return true;
  if (typeof params.claims !== 'string') return false;
  try {
    const claims = JSON.parse(params.claims) as { id_token?: { acr?: { essential?: boolean; value?: unknown; values?: unknown } } };
    const acr = claims.id_token?.acr;
    if (!acr?.essential) return false;
    return acceptsOnlyMulti(Array.isArray(acr.values) ? acr.values : [acr.value]);
  } catch {
    return false; // the provider refuses a malformed claims parameter itself
  }
}
