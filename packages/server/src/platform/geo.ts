import geoip from 'geoip-country';
import type { Language } from '@portal/contracts';

/** ISO country of an IP from the shipped GeoLite2 country table (geoip-country); null when unknown. */
export function countryOfIp(ip: string): string | null {
  const normalized = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return geoip.lookup(normalized)?.country ?? null;
}

/**
 * Language for a visitor: Vietnamese addresses give `vi`; otherwise the first supported
 * language of Accept-Language; otherwise English.
 */
export function languageFor(ip: string, acceptLanguage: string | undefined): Language {
  if (countryOfIp(ip) === 'VN') return 'vi';
  const preferred = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of preferred) {
    const primary = tag.split('-')[0];
    if (primary === 'vi' || primary === 'en') return primary;
  }
  return 'en';
}
