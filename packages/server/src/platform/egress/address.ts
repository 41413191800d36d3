import ipaddr from 'ipaddr.js';
import { listed } from './allow-list';
import type { EgressPolicy } from './policy';

/**
 * Whether a request may connect to this IP address: only public unicast addresses (ipaddr.js's
 * 'unicast' range), which leaves out loopback, private (RFC 1918, fc00::/7), link-local
 * (169.254/16 with the cloud metadata address, fe80::/10), CGNAT (100.64/10), multicast,
 * unspecified, broadcast, reserved, and IPv6 ranges that embed an IPv4 address (NAT64, 6to4,
 * Teredo). An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as its IPv4 address.
 * Loopback is allowed when the policy says so (outside production); an address in a range the
 * operator listed (EGRESS_ALLOW_HOSTS) is allowed whatever its class.
 */
export function addressAllowed(address: string, policy: Pick<EgressPolicy, 'allowLoopback' | 'allowRanges'>): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
  const range = parsed.range();
  return range === 'unicast' || (range === 'loopback' && policy.allowLoopback) || listed(parsed, policy.allowRanges);
}

/** Whether a host (as URL.hostname gives it) is an IP address rather than a name. */
export function isIpLiteral(hostname: string): boolean {
  return ipaddr.isValid(hostname.replace(/^\[|\]$/g, ''));
}
