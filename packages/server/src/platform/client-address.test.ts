import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { ConfigError, loadConfig } from '../config';
import { limitAddress, parseTrustProxy } from './client-address';
import { limits } from './rate-limit';

describe('TRUST_PROXY', () => {
  it('takes a hop count or proxy addresses and CIDRs', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ NODE_ENV: 'development', TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ NODE_ENV: 'development', TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,2001:db8::/32,loopback' }).TRUST_PROXY).toBe('10.0.0.0/8,192.0.2.7,2001:db8::/32,loopback');
  });

  it('refuses a bare true at start, saying what to write instead', () => {
    let problems: string[] = [];
    try {
      loadConfig({ NODE_ENV: 'development', TRUST_PROXY: 'true' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^TRUST_PROXY: /);
    expect(problems[0]).toContain('TRUST_PROXY=1');
    expect(problems[0]).toContain('CIDR');
  });

  it('refuses what is not an address, a CIDR or a hop count', () => {
    expect(parseTrustProxy('10.0.0.0/33')).toHaveProperty('problem');
    expect(parseTrustProxy('proxy.example.com')).toHaveProperty('problem');
    expect(parseTrustProxy('1.2.3.4/8/8')).toHaveProperty('problem');
    expect(parseTrustProxy('99')).toHaveProperty('problem');
    expect(() => loadConfig({ NODE_ENV: 'development', TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });
});

describe('limitAddress', () => {
  it('is the IPv4 address itself, also when mapped into IPv6', () => {
    expect(limitAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(limitAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('groups IPv6 clients by /64, whatever the spelling', () => {
    expect(limitAddress('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(limitAddress('2001:db8:1:3::a')).toBe('2001:db8:1:3::/64');
    expect(limitAddress('::1')).toBe('0:0:0:0::/64');
    expect(limitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

let guesses = 0;

/**
 * Wrong reset codes: each counts against the client address's recovery limit. Each names
 * another (unknown) email, so the per-account code budget never answers first.
 */
async function guessResetCode(server: TestServer, forwardedFor: string) {
  guesses += 1;
  return server.app.inject({
    method: 'POST',
    url: '/v3/sso/password/forgot/verify-code',
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { identifier: `nobody-${guesses}@example.com`, code: '000000' },
  });
}

async function statusesFor(server: TestServer, forwardedFor: (attempt: number) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt <= limits.recoveryPerIp.limit; attempt++) statuses.push((await guessResetCode(server, forwardedFor(attempt))).statusCode);
  return statuses;
}

describe('the client address behind proxies (HTTP)', () => {
  let byHops: TestServer;
  let byAddresses: TestServer;
  beforeAll(async () => {
    byHops = await startTestServer({ env: { TRUST_PROXY: '1' } });
    // inject() connects from 127.0.0.1: the one proxy in front.
    byAddresses = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }, database: byHops.database });
  });
  afterAll(async () => {
    await byAddresses.close();
    await byHops.close();
  });

  it('with a hop count, a client cannot escape a limit by writing its own left-most entries', async () => {
    const statuses = await statusesFor(byHops, (attempt) => `198.51.100.${attempt}, 203.0.113.1`);
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('with proxy CIDRs, the right-most untrusted entry is the client', async () => {
    const statuses = await statusesFor(byAddresses, (attempt) => `198.51.100.${attempt}, 203.0.113.2, 10.1.2.3`);
    expect(statuses.at(-1)).toBe(429);
    // Another client behind the same proxies has its own allowance.
    expect((await guessResetCode(byAddresses, '203.0.113.3, 10.1.2.3')).statusCode).toBe(400);
  });

  it('counts IPv6 clients by /64', async () => {
    const statuses = await statusesFor(byHops, (attempt) => `2001:db8:aa:bb:${attempt.toString(16)}::1`);
    expect(statuses.at(-1)).toBe(429);
    expect((await guessResetCode(byHops, '2001:db8:aa:bc::1')).statusCode).toBe(400);
  });
});
