import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';

/**
 * What Fastify's `trustProxy` is given: `false` (the socket's address is the client), a hop
 * count (the client is that many entries from the right of `X-Forwarded-For`), or the proxies'
 * addresses and CIDRs (entries are skipped from the right while they come from one of them).
 * Never `true`: that takes the left-most entry, which the client writes itself.
 */
export type TrustProxy = false | number | string;

/** proxy-addr's names for address ranges, accepted beside addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const TRUE_REFUSED =
  'a bare "true" trusts the left-most X-Forwarded-For entry, which any client can write; ' +
  'write the number of proxies in front of the server (e.g. TRUST_PROXY=1) or their addresses and CIDRs (e.g. TRUST_PROXY=10.0.0.0/8,192.0.2.7)';

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** Reads TRUST_PROXY; returns the setting, or the reason it is refused. */
export function parseTrustProxy(raw: string): { value: TrustProxy } | { problem: string } {
  const text = raw.trim();
  if (text === '' || text === 'false' || text === '0') return { value: false };
  if (text === 'true') return { problem: TRUE_REFUSED };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 16 ? { value: hops } : { problem: 'a hop count above 16 is not a real proxy chain' };
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (bad.length) return { problem: `not an address or CIDR: ${bad.join(', ')} (write a hop count like 1, or addresses and CIDRs separated by commas)` };
  return { value: entries.join(',') };
}

/** The eight 16-bit groups of an IPv6 address (with an embedded IPv4 tail turned into two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const middle = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

/**
 * The one address every per-address limit counts against. An IPv4 client is itself (an
 * IPv4-mapped IPv6 address too); an IPv6 client is its /64, since one subscriber is usually
 * handed a whole /64 and could otherwise take a fresh address for every request.
 */
export function limitAddress(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * The setting in the form Fastify's types take: a hop count becomes proxy-addr's own rule
 * (trust the socket and the next hops - 1 entries from the right).
 */
export function fastifyTrustProxy(setting: TrustProxy): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

type Trust = (address: string, hop: number) => boolean;
/** The proxy-addr Fastify itself computes request.ip with (its own dependency, resolved from it). */
const proxyAddr = createRequire(createRequire(import.meta.url).resolve('fastify'))('@fastify/proxy-addr') as {
  all(request: IncomingMessage, trust: Trust): string[];
  compile(values: string[]): Trust;
};

/** The last entry of a header sent more than once (Fastify's getLastEntryInMultiHeaderValue). */
function lastEntry(header: string | string[]): string {
  const value = Array.isArray(header) ? header.join(',') : header;
  const at = value.lastIndexOf(',');
  return at === -1 ? value.trim() : value.slice(at + 1).trim();
}

/**
 * Fastify's `request.ip` and `request.protocol` (lib/request.js) for a raw request, under the
 * same setting: for what answers before Fastify (the oauth module's lean token entry), so its
 * log lines and HSTS header see the client exactly as Fastify's requests do.
 */
export function rawRequestOrigin(setting: TrustProxy): { ip(request: IncomingMessage): string | undefined; protocol(request: IncomingMessage): string } {
  const given = fastifyTrustProxy(setting);
  const trust: Trust | undefined = typeof given === 'function' ? given : typeof given === 'string' ? proxyAddr.compile(given.split(',').map((entry) => entry.trim())) : undefined;
  const encrypted = (request: IncomingMessage) => ((request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  if (!trust) return { ip: (request) => request.socket.remoteAddress, protocol: encrypted };
  return {
    ip: (request) => proxyAddr.all(request, trust).at(-1),
    protocol: (request) => {
      const forwarded = request.headers['x-forwarded-proto'];
      const peer = request.socket.remoteAddress;
      return forwarded && peer !== undefined && trust(peer, 0) ? lastEntry(forwarded) : encrypted(request);
    },
  };
}
