import { execFile } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipv4Resolver, startDnsServer } from '../../../test/dns-server';
import { addressAllowed, checkEgressTarget, checkEgressUrl, egressFetch, EgressRefused, type EgressPolicy, type Resolve } from '.';

/** A server on 127.0.0.1 that counts the connections and requests that reach it. */
async function countingServer(handle: (path: string, response: ServerResponse) => void) {
  const server: Server = createServer((request, response) => {
    seen.requests++;
    handle(request.url ?? '/', response);
  });
  const seen = { connections: 0, requests: 0 };
  server.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => 'sent', (error: unknown) => (error instanceof EgressRefused ? error.problem : `other: ${String(error)}`));

let target: Awaited<ReturnType<typeof countingServer>>;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let resolve: Resolve;
const rebindAnswers = ['8.8.8.8', '127.0.0.1'];

beforeAll(async () => {
  target = await countingServer((path, response) => {
    if (path === '/slow') return; // never answers
    if (path === '/large') return response.end('x'.repeat(2000));
    if (path === '/large-chunked') {
      response.write('x'.repeat(700));
      setTimeout(() => response.end('x'.repeat(700)), 20);
      return;
    }
    if (path === '/redirect') return response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    response.setHeader('content-type', 'application/json').end('{"ok":true}');
  });
  let rebindQuestions = 0;
  dns = await startDnsServer(new Map(), (name) => {
    if (name === 'localhost') return ['127.0.0.1'];
    if (name === 'loop.example.test') return ['127.0.0.1'];
    if (name === 'private.example.test') return ['10.1.2.3'];
    if (name === 'metadata.example.test') return ['169.254.169.254'];
    if (name === 'mixed.example.test') return ['8.8.8.8', '127.0.0.1'];
    // A public-looking address to the first question, loopback to every later one.
    if (name === 'rebind.example.test') return [rebindAnswers[Math.min(rebindQuestions++, 1)]!];
    return undefined;
  });
  resolve = ipv4Resolver(dns.server);
});

afterAll(async () => {
  await target?.close();
  await dns?.close();
});

describe('addresses', () => {
  it('allows only public unicast addresses, loopback only when the policy allows it', () => {
    const refused = [
      '127.0.0.1', '127.9.9.9', '::1', // loopback
      '10.0.0.1', '172.16.5.4', '192.168.1.1', 'fc00::1', 'fd12:3456::1', // private
      '169.254.169.254', 'fd00:ec2::254', 'fe80::1', // link-local and cloud metadata
      '100.64.0.1', '100.127.255.254', // CGNAT
      '224.0.0.1', 'ff02::1', '0.0.0.0', '::', '255.255.255.255', // multicast, unspecified, broadcast
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', // IPv4-mapped
      '64:ff9b::a9fe:a9fe', '2002:a00:1::1', '192.0.2.1', // embedding IPv4 (NAT64, 6to4), documentation
      'not an address',
    ];
    for (const address of refused) expect([address, addressAllowed(address, { allowLoopback: false })]).toEqual([address, false]);
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(addressAllowed(address, { allowLoopback: false })).toBe(true);
    expect(addressAllowed('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(addressAllowed('10.0.0.1', { allowLoopback: true })).toBe(false);
  });
});

describe('URLs', () => {
  const production: EgressPolicy = { allowLoopback: false };
  const development: EgressPolicy = { allowLoopback: true };

  it('in production: https only, and no literal or named address that is not public', () => {
    const cases: Array<[string, string | null]> = [
      ['https://login.example.com/', null],
      ['https://8.8.8.8/', null],
      ['http://login.example.com/', 'scheme'],
      ['http://127.0.0.1:8080/', 'scheme'],
      ['ftp://login.example.com/', 'scheme'],
      ['https://127.0.0.1/', 'address'],
      ['https://[::1]/', 'address'],
      ['https://[::ffff:127.0.0.1]/', 'address'],
      ['https://2130706433/', 'address'], // 127.0.0.1 written as one number
      ['https://0x7f.1/', 'address'],
      ['https://10.0.0.1/', 'address'],
      ['https://169.254.169.254/latest/meta-data/', 'address'],
      ['https://[fd00:ec2::254]/', 'address'],
      ['https://metadata.google.internal/computeMetadata/v1/', 'address'],
      ['https://METADATA.google.internal./', 'address'],
      ['https://user:pw@login.example.com/', 'credentials'],
      ['not a url', 'invalid'],
    ];
    for (const [url, problem] of cases) expect([url, checkEgressUrl(url, production)]).toEqual([url, problem]);
  });

  it('outside production: http and https to loopback too, private addresses still refused', () => {
    expect(checkEgressUrl('http://127.0.0.1:8080/', development)).toBeNull();
    expect(checkEgressUrl('http://localhost:8080/', development)).toBeNull();
    expect(checkEgressUrl('http://[::1]:8080/', development)).toBeNull();
    expect(checkEgressUrl('http://login.example.com/', development)).toBe('scheme');
    expect(checkEgressUrl('http://10.0.0.1/', development)).toBe('scheme');
    expect(checkEgressUrl('https://10.0.0.1/', development)).toBe('address');
    expect(checkEgressUrl('https://169.254.169.254/', development)).toBe('address');
  });

  it('checks every address a name resolves to when a URL is set', async () => {
    const policy = { allowLoopback: false, resolve };
    expect(await checkEgressTarget('https://loop.example.test/', policy)).toBe('address');
    expect(await checkEgressTarget('https://private.example.test/', policy)).toBe('address');
    expect(await checkEgressTarget('https://metadata.example.test/', policy)).toBe('address');
    expect(await checkEgressTarget('https://mixed.example.test/', policy)).toBe('address');
    // Nothing to judge yet: the request checks again when it connects.
    expect(await checkEgressTarget('https://unknown.example.test/', policy)).toBeNull();
  });
});

describe('egressFetch', () => {
  it('in production refuses loopback by literal, by scheme and by a name resolving to it, before connecting', async () => {
    const policy: EgressPolicy = { allowLoopback: false, resolve };
    const before = { ...target.seen };
    expect(await refusal(egressFetch(`http://127.0.0.1:${target.port}/`, {}, policy))).toBe('scheme');
    expect(await refusal(egressFetch(`https://127.0.0.1:${target.port}/`, {}, policy))).toBe('address');
    expect(await refusal(egressFetch(`https://[::ffff:127.0.0.1]:${target.port}/`, {}, policy))).toBe('address');
    expect(await refusal(egressFetch(`https://loop.example.test:${target.port}/`, {}, policy))).toBe('address');
    expect(await refusal(egressFetch(`https://localhost:${target.port}/`, {}, policy))).toBe('address');
    expect(target.seen).toEqual(before);
  });

  it('refuses private and metadata addresses at resolution, so no connection is attempted', async () => {
    const policy: EgressPolicy = { allowLoopback: false, resolve };
    // The refusal comes from the lookup, which runs before any socket connects.
    expect(await refusal(egressFetch('https://private.example.test/', {}, policy))).toBe('address');
    expect(await refusal(egressFetch('https://metadata.example.test/', {}, policy))).toBe('address');
    expect(await refusal(egressFetch('https://mixed.example.test/', {}, policy))).toBe('address');
  });

  it('connects to the address it checked: a name that answered a public address first and loopback now is refused (DNS rebinding)', async () => {
    const policy: EgressPolicy = { allowLoopback: false, resolve };
    const before = { ...target.seen };
    // The check when the URL is set sees the public address ...
    expect(await checkEgressTarget(`https://rebind.example.test:${target.port}/`, policy)).toBeNull();
    // ... the request resolves again, sees loopback, and never connects.
    expect(await refusal(egressFetch(`https://rebind.example.test:${target.port}/`, {}, policy))).toBe('address');
    expect(target.seen).toEqual(before);
  });

  it('outside production reaches a local server through the guarded lookup', async () => {
    const response = await egressFetch(`http://localhost:${target.port}/`, {}, { allowLoopback: true, resolve });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('caps the answer: announced too large, or counted past the limit', async () => {
    const policy: EgressPolicy = { allowLoopback: true, maxResponseBytes: 1000 };
    expect(await refusal(egressFetch(`http://127.0.0.1:${target.port}/large`, {}, policy))).toBe('too_large');
    const chunked = await egressFetch(`http://127.0.0.1:${target.port}/large-chunked`, {}, policy);
    expect(await refusal(chunked.text())).toBe('too_large');
    const small = await egressFetch(`http://127.0.0.1:${target.port}/`, {}, policy);
    expect(await small.text()).toBe('{"ok":true}');
  });

  it('gives up after its timeout', async () => {
    const started = Date.now();
    const outcome = await refusal(egressFetch(`http://127.0.0.1:${target.port}/slow`, {}, { allowLoopback: true, timeoutMs: 300 }));
    expect(outcome).toMatch(/^other: .*(TimeoutError|aborted)/i);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("leaves Node's own fetch working: the undici package never takes over its global dispatcher", async () => {
    // A fresh process, as the server: the guard loaded and used first, then Node's fetch posts with a
    // content-length header (as arctic does), which the undici package's Agent refuses.
    const script = [
      `const guard = await import(${JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)))});`,
      `await guard.egressFetch('http://127.0.0.1:${target.port}/', {}, { allowLoopback: true });`,
      `const response = await fetch('http://127.0.0.1:${target.port}/', { method: 'POST', body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' } });`,
      'console.log(response.status);',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 });
    expect(stdout.trim()).toBe('200');
  });

  it('does not follow redirects', async () => {
    const response = await egressFetch(`http://127.0.0.1:${target.port}/redirect`, {}, { allowLoopback: true });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere');
  });
});
