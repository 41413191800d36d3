import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipv4Resolver, startDnsServer } from '../../../test/dns-server';
import { loadConfig } from '../../config';
import { addressAllowed, checkEgressTarget, checkEgressUrl, egressFetch, egressPolicyFor, EgressRefused, parseEgressAllowList, type EgressPolicy, type EgressRange, type Resolve } from '.';

/**
 * EGRESS_ALLOW_HOSTS: the operator's list of non-public addresses that requests to URLs someone
 * sets may reach in production (a receiver inside their own network). Off by default; a listed
 * address opens that address and nothing near it.
 */
const production = { NODE_ENV: 'production', ALTCHA_HMAC_KEY: 'a-key-of-enough-length' };
const ranges = (value: string): EgressRange[] => {
  const parsed = parseEgressAllowList(value);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.value;
};
const refusal = (promise: Promise<unknown>) => promise.then(() => 'sent', (error: unknown) => (error instanceof EgressRefused ? error.problem : `other: ${String(error)}`));

let target: Server;
let port = 0;
const seen = { connections: 0, requests: 0 };
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let resolve: Resolve;

beforeAll(async () => {
  target = createServer((_request, response) => {
    seen.requests++;
    response.end('ok');
  });
  target.on('connection', () => seen.connections++);
  await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
  port = (target.address() as AddressInfo).port;
  dns = await startDnsServer(new Map(), (name) => {
    if (name === 'loop.example.test') return ['127.0.0.1'];
    if (name === 'other-loop.example.test') return ['127.0.0.2'];
    if (name === 'private.example.test') return ['10.1.2.3'];
    if (name === 'metadata.example.test') return ['169.254.169.254'];
    if (name === 'loop-and-private.example.test') return ['127.0.0.1', '10.1.2.3'];
    return undefined;
  });
  resolve = ipv4Resolver(dns.server);
});

afterAll(async () => {
  await new Promise((done) => target?.close(done));
  await dns?.close();
});

describe('EGRESS_ALLOW_HOSTS', () => {
  it('is empty by default in production, so loopback stays refused there', async () => {
    const config = loadConfig(production);
    expect(config.EGRESS_ALLOW_HOSTS).toEqual([]);
    const policy = { ...egressPolicyFor(config), resolve };
    const before = { ...seen };
    expect(await refusal(egressFetch(`http://127.0.0.1:${port}/`, {}, policy))).toBe('scheme');
    expect(await refusal(egressFetch(`https://127.0.0.1:${port}/`, {}, policy))).toBe('address');
    expect(await refusal(egressFetch(`https://loop.example.test:${port}/`, {}, policy))).toBe('address');
    expect(seen).toEqual(before);
  });

  it('takes addresses and CIDR ranges only: a name, a range over a cloud metadata address or anything else stops the start', () => {
    expect(loadConfig({ ...production, EGRESS_ALLOW_HOSTS: '127.0.0.1, 10.20.0.0/24,fd12::1' }).EGRESS_ALLOW_HOSTS).toHaveLength(3);
    expect(() => loadConfig({ ...production, EGRESS_ALLOW_HOSTS: 'hooks.internal' })).toThrow(/EGRESS_ALLOW_HOSTS: hooks.internal: must be an IP address or a CIDR range/);
    for (const wide of ['0.0.0.0/0', '169.254.0.0/16', '169.254.169.254', '::/0', 'fd00::/8']) {
      expect(() => loadConfig({ ...production, EGRESS_ALLOW_HOSTS: wide })).toThrow(/covers a cloud metadata address/);
    }
    expect(() => loadConfig({ ...production, EGRESS_ALLOW_HOSTS: '10.0.0.0/33' })).toThrow(/EGRESS_ALLOW_HOSTS/);
  });

  it('a listed 127.0.0.1 opens that address only: not the rest of loopback, private ranges or the metadata service', () => {
    const policy: EgressPolicy = { allowLoopback: false, allowRanges: ranges('127.0.0.1') };
    expect(addressAllowed('127.0.0.1', policy)).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', policy)).toBe(true);
    for (const address of ['127.0.0.2', '::1', '10.0.0.1', '10.255.255.255', '172.16.0.1', '192.168.0.1', '169.254.169.254', 'fd00:ec2::254', '100.64.0.1', '0.0.0.0']) {
      expect([address, addressAllowed(address, policy)]).toEqual([address, false]);
    }
    const cases: Array<[string, string | null]> = [
      ['http://127.0.0.1:8080/hooks', null],
      ['https://127.0.0.1:8443/hooks', null],
      ['http://127.0.0.2/', 'scheme'],
      ['https://127.0.0.2/', 'address'],
      ['http://10.0.0.1/', 'scheme'],
      ['https://10.0.0.1/', 'address'],
      ['https://169.254.169.254/latest/meta-data/', 'address'],
      ['https://metadata.google.internal/', 'address'],
      // http goes to a listed address written as such, never to a name (whatever it resolves to).
      ['http://localhost:8080/', 'scheme'],
      ['http://loop.example.test/', 'scheme'],
      ['http://hooks.example.com/', 'scheme'],
    ];
    for (const [url, problem] of cases) expect([url, checkEgressUrl(url, policy)]).toEqual([url, problem]);
  });

  it('a listed range opens its addresses only', () => {
    const policy: EgressPolicy = { allowLoopback: false, allowRanges: ranges('10.20.0.0/24') };
    expect(addressAllowed('10.20.0.7', policy)).toBe(true);
    expect(addressAllowed('10.20.1.7', policy)).toBe(false);
    expect(addressAllowed('127.0.0.1', policy)).toBe(false);
  });

  it('a name is judged by the addresses it resolves to: one resolving to a listed address passes, private or metadata ones stay refused', async () => {
    const policy: EgressPolicy = { allowLoopback: false, allowRanges: ranges('127.0.0.1'), resolve };
    expect(await checkEgressTarget('https://loop.example.test/', policy)).toBeNull();
    expect(await checkEgressTarget('https://other-loop.example.test/', policy)).toBe('address');
    expect(await checkEgressTarget('https://private.example.test/', policy)).toBe('address');
    expect(await checkEgressTarget('https://metadata.example.test/', policy)).toBe('address');
    expect(await checkEgressTarget('https://loop-and-private.example.test/', policy)).toBe('address');
    expect(await refusal(egressFetch('https://private.example.test/', {}, policy))).toBe('address');
    expect(await refusal(egressFetch('https://metadata.example.test/', {}, policy))).toBe('address');
    expect(await refusal(egressFetch('https://loop-and-private.example.test/', {}, policy))).toBe('address');
  });

  it('in production with 127.0.0.1 listed, a request reaches a receiver there', async () => {
    const policy = { ...egressPolicyFor(loadConfig({ ...production, EGRESS_ALLOW_HOSTS: '127.0.0.1' })), resolve };
    const response = await egressFetch(`http://127.0.0.1:${port}/`, {}, policy);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
  });
});
