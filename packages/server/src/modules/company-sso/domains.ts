import { Resolver } from 'node:dns/promises';

/** The TXT record that proves an organization controls a domain: `portal-verification=<token>` on the domain itself. */
export const TXT_PREFIX = 'portal-verification=';

/** Lower-cased DNS name of an email domain (letters, digits, dashes, dots; a dot and a label of 2+ letters at the end), or null. */
export function normalizeDomain(value: string | undefined): string | null {
  const domain = value?.trim().toLowerCase().replace(/\.$/, '') ?? '';
  if (domain.length > 253 || !/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain)) return null;
  return domain;
}

export type TxtLookup = (name: string) => Promise<string[]>;

/**
 * TXT records of a name (each record's strings joined), asked of the configured DNS servers
 * (COMPANY_SSO_DNS_SERVER) or the system's. A name without records answers [].
 */
export function dnsTxtLookup(servers: readonly string[]): TxtLookup {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
      throw error;
    }
  };
}
