import ipaddr from 'ipaddr.js';

/** One address range an operator lets outgoing requests reach: an address and its prefix length. */
export type EgressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Cloud metadata services: a listed range may never cover them (the setting is for the operator's own services). */
const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254'].map((address) => ipaddr.parse(address));

/**
 * EGRESS_ALLOW_HOSTS: IP addresses and CIDR ranges, comma-separated. Names are refused: what a
 * name resolves to can change, and the guard judges the address a socket connects to. A range
 * that covers a cloud metadata address is refused too.
 */
export function parseEgressAllowList(value: string): { value: EgressRange[] } | { problem: string } {
  const ranges: EgressRange[] = [];
  for (const entry of value.split(',').map((item) => item.trim()).filter(Boolean)) {
    let range: EgressRange;
    try {
      range = entry.includes('/') ? ipaddr.parseCIDR(entry) : ((parsed) => [parsed, parsed.kind() === 'ipv4' ? 32 : 128] as EgressRange)(ipaddr.process(entry));
    } catch {
      return { problem: `${entry}: must be an IP address or a CIDR range (e.g. 10.20.0.5 or 10.20.0.0/24), not a name` };
    }
    if (METADATA_ADDRESSES.some((metadata) => inRange(metadata, range))) return { problem: `${entry}: covers a cloud metadata address, which outgoing requests never reach` };
    ranges.push(range);
  }
  return { value: ranges };
}

function inRange(address: ipaddr.IPv4 | ipaddr.IPv6, [base, bits]: EgressRange): boolean {
  return address.kind() === base.kind() && address.match(base, bits);
}

/** Whether `address` (already parsed, IPv4-mapped IPv6 unwrapped) is in one of the listed ranges. */
export function listed(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: readonly EgressRange[] | undefined): boolean {
  return ranges?.some((range) => inRange(address, range)) ?? false;
}
