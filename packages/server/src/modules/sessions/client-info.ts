import { UAParser } from 'ua-parser-js';
import { countryOfIp } from '../../platform/geo';

export interface ClientInfo {
  browser: string | null;
  device: string | null;
  ip: string;
  location: string | null;
}

/** What the device-activity page shows about a session, read from the User-Agent and the IP. */
export function describeClient(userAgent: string | undefined, ip: string): ClientInfo {
  const parsed = new UAParser(userAgent ?? '').getResult();
  const browser = [parsed.browser.name, parsed.browser.major].filter(Boolean).join(' ') || null;
  const os = [parsed.os.name, parsed.os.version].filter(Boolean).join(' ');
  const hardware = [parsed.device.vendor, parsed.device.model].filter(Boolean).join(' ');
  const device = [hardware, os].filter(Boolean).join(' · ') || null;
  return { browser, device, ip, location: countryOfIp(ip) };
}
