import type { LookupFunction } from 'node:net';
import { addressAllowed } from './address';
import { systemResolve, type EgressPolicy, type ResolvedAddress } from './policy';
import { EgressRefused } from './refusal';

type LookupCallback = (error: Error | null, address: string | ResolvedAddress[], family?: number) => void;

/**
 * The `lookup` of every connection the guard makes: the name is resolved here, each address is
 * checked, and the socket connects to the very addresses checked (a name that answers a public
 * address to an earlier check and a private one now is refused now: no DNS rebinding).
 * A name with any refused address is refused whole.
 */
export function guardedLookup(policy: EgressPolicy): LookupFunction {
  const resolve = policy.resolve ?? systemResolve;
  const lookup = (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.some((entry) => !addressAllowed(entry.address, policy))) {
          callback(new EgressRefused('address', `${hostname} resolves to an address outgoing requests may not reach`), []);
          return;
        }
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' }), []);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(error, []),
    );
  };
  return lookup as unknown as LookupFunction;
}
