import { addressAllowed, isIpLiteral } from './address';
import { systemResolve, type EgressPolicy } from './policy';

/**
 * Why a URL is refused: not an absolute URL; not https (http only to loopback when the policy
 * allows loopback, or to an address the policy lists, written as the address); user and password
 * in it; an address (or a cloud metadata name) that is neither public nor listed.
 */
export type EgressProblem = 'invalid' | 'scheme' | 'credentials' | 'address';

/** Cloud metadata services by name (their addresses are link-local and refused as such too). */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
const LOOPBACK_NAMES = new Set(['localhost']);

const bareHost = (url: URL) => url.hostname.toLowerCase().replace(/\.$/, '');

/** The checks that need no DNS: the URL's form, its scheme and a literal address. Null when they pass. */
export function checkEgressUrl(raw: string | URL, policy: EgressPolicy): EgressProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  const host = bareHost(url);
  if (!host) return 'invalid';
  if (url.username || url.password) return 'credentials';
  const loopbackHost = LOOPBACK_NAMES.has(host) || host.endsWith('.localhost') || (isIpLiteral(host) && addressAllowed(host, { allowLoopback: true }) && !addressAllowed(host, { allowLoopback: false }));
  // Plain http only where no one else's network is crossed: loopback outside production, or an address the operator listed by its number.
  const listedLiteral = isIpLiteral(host) && !addressAllowed(host, { allowLoopback: false }) && addressAllowed(host, { allowLoopback: false, allowRanges: policy.allowRanges });
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && ((policy.allowLoopback && loopbackHost) || listedLiteral))) return 'scheme';
  if (METADATA_HOSTS.has(host)) return 'address';
  if (isIpLiteral(host) && !addressAllowed(host, policy)) return 'address';
  return null;
}

/**
 * The URL's checks with its name resolved now: every address must be allowed. Used when a URL
 * is set, so a refused one is answered as a field error at once; the request itself checks
 * again at connection time (the name may resolve differently then). A name that does not
 * resolve now passes: nothing can be sent to it, and it may be published later.
 */
export async function checkEgressTarget(raw: string | URL, policy: EgressPolicy): Promise<EgressProblem | null> {
  const problem = checkEgressUrl(raw, policy);
  if (problem) return problem;
  const host = bareHost(new URL(raw)).replace(/^\[|\]$/g, '');
  if (isIpLiteral(host)) return null;
  let addresses;
  try {
    addresses = await (policy.resolve ?? systemResolve)(host);
  } catch {
    return null;
  }
  return addresses.every((entry) => addressAllowed(entry.address, policy)) ? null : 'address';
}
