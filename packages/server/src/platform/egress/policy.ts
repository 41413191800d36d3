import { lookup } from 'node:dns/promises';
import type { EgressRange } from './allow-list';

/** One address a host name resolves to, as node:dns answers it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all of its addresses. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * The rule for requests to URLs that an admin, a client or a person sets. A value passed in
 * (never read from the environment here) so tests can apply the production rule to a server
 * on this machine.
 */
export interface EgressPolicy {
  /**
   * Outside production: http and loopback addresses allowed, so a local identity provider or
   * app can be tried. Never in production (config refuses EGRESS_ALLOW_LOOPBACK=true there).
   */
  allowLoopback: boolean;
  /**
   * Addresses the operator lets requests reach although they are not public (EGRESS_ALLOW_HOSTS,
   * e.g. a receiver inside their own network), production included: only these ranges, whatever
   * name leads to them; plain http too when the URL names the address itself.
   */
  allowRanges?: readonly EgressRange[];
  /** How a host name is resolved before connecting; by default the system's resolver, as any connection. */
  resolve?: Resolve;
  /** The whole request, body included, ends after this long. */
  timeoutMs?: number;
  /** A larger answer is cut off with an error. */
  maxResponseBytes?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The policy of a running server: loopback only where the configuration allows it (never in production), and the ranges the operator listed. */
export function egressPolicyFor(config: { EGRESS_ALLOW_LOOPBACK: boolean; EGRESS_ALLOW_HOSTS?: readonly EgressRange[] }): EgressPolicy {
  return { allowLoopback: config.EGRESS_ALLOW_LOOPBACK, allowRanges: config.EGRESS_ALLOW_HOSTS ?? [] };
}
