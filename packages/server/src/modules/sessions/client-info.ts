import { UAParser } from 'ua-parser-js';
import { countryOfIp } from '../../platform/geo';

export interface ClientInfo {
  browser: string | null;
  device: string | null;
  ip: string;
  location: string | null;
}

type Agent = Pick<ClientInfo, 'browser' | 'device'>;

/** Parsing a User-Agent costs ~0.25 ms, and people sign in again from the same few browsers. */
const MAX_REMEMBERED_AGENTS = 1000;
const agents = new Map<string, Agent>();

function describeAgent(userAgent: string): Agent {
  const remembered = agents.get(userAgent);
  if (remembered) return remembered;
  const parsed = new UAParser(userAgent).getResult();
  const browser = [parsed.browser.name, parsed.browser.major].filter(Boolean).join(' ') || null;
  const os = [parsed.os.name, parsed.os.version].filter(Boolean).join(' ');
  const hardware = [parsed.device.vendor, parsed.device.model].filter(Boolean).join(' ');
  const agent = { browser, device: [hardware, os].filter(Boolean).join(' · ') || null };
  // Bounded: a flood of made-up agents only ever costs the parse, never unbounded memory.
  if (agents.size >= MAX_REMEMBERED_AGENTS) agents.clear();
  agents.set(userAgent, agent);
  return agent;
}

/** What the device-activity page shows about a session, read from the User-Agent and the IP. */
export function describeClient(userAgent: string | undefined, ip: string): ClientInfo {
  return { ...describeAgent(userAgent ?? ''), ip, location: countryOfIp(ip) };
}
