import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipv4Resolver, startDnsServer } from '../../../test/dns-server';
import { egressSend, EgressRefused, parseEgressAllowList, type EgressPolicy, type Resolve } from '.';

/** egressSend, the guard's request without fetch (webhook attempts): the same refusals, and one kept connection. */
let target: Server;
let port = 0;
const seen = { connections: 0, requests: 0 };
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let resolve: Resolve;
const rebindAnswers = ['8.8.8.8', '127.0.0.1'];
const post = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{"a":1}' };
const refusal = (promise: Promise<unknown>) => promise.then(() => 'sent', (error: unknown) => (error instanceof EgressRefused ? error.problem : `other: ${(error as Error).name}`));

beforeAll(async () => {
  target = createServer((request, response) => {
    seen.requests++;
    request.resume();
    if (request.url === '/slow') return; // never answers
    if (request.url === '/redirect') return response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    if (request.url === '/large') return response.end('x'.repeat(5000));
    response.writeHead(request.url === '/fail' ? 503 : 204).end();
  });
  target.on('connection', () => seen.connections++);
  await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
  port = (target.address() as AddressInfo).port;
  let rebindQuestions = 0;
  dns = await startDnsServer(new Map(), (name) => {
    if (name === 'loop.example.test') return ['127.0.0.1'];
    if (name === 'private.example.test') return ['10.1.2.3'];
    if (name === 'rebind.example.test') return [rebindAnswers[Math.min(rebindQuestions++, 1)]!];
    return undefined;
  });
  resolve = ipv4Resolver(dns.server);
});

afterAll(async () => {
  target?.closeAllConnections();
  await new Promise((done) => target?.close(done));
  await dns?.close();
});

describe('egressSend', () => {
  it('under the production rule refuses loopback by scheme, literal and name, private names and a rebinding name, before connecting', async () => {
    const policy: EgressPolicy = { allowLoopback: false, resolve };
    const before = { ...seen };
    expect(await refusal(egressSend(`http://127.0.0.1:${port}/`, post, policy))).toBe('scheme');
    expect(await refusal(egressSend(`https://127.0.0.1:${port}/`, post, policy))).toBe('address');
    expect(await refusal(egressSend(`https://[::ffff:127.0.0.1]:${port}/`, post, policy))).toBe('address');
    expect(await refusal(egressSend(`https://loop.example.test:${port}/`, post, policy))).toBe('address');
    expect(await refusal(egressSend('https://private.example.test/', post, policy))).toBe('address');
    expect(await refusal(egressSend('https://metadata.google.internal/', post, policy))).toBe('address');
    expect(await refusal(egressSend(`https://rebind.example.test:${port}/`, post, policy))).toBe('other: Error'); // the public answer: nothing listens there
    expect(await refusal(egressSend(`https://rebind.example.test:${port}/`, post, policy))).toBe('address');
    expect(await refusal(egressSend('not a url', post, policy))).toBe('invalid');
    expect(seen).toEqual(before);
  });

  it('with 127.0.0.1 listed, sends there and answers the status; many requests share one connection', async () => {
    const listed = parseEgressAllowList('127.0.0.1');
    if ('problem' in listed) throw new Error(listed.problem);
    const policy: EgressPolicy = { allowLoopback: false, allowRanges: listed.value, resolve };
    const before = { ...seen };
    for (let i = 0; i < 10; i++) expect(await egressSend(`http://127.0.0.1:${port}/${i === 5 ? 'fail' : 'hooks'}`, post, policy)).toEqual({ status: i === 5 ? 503 : 204 });
    expect(seen.requests - before.requests).toBe(10);
    // Kept alive: undici may use a second connection while the first is being released, never one per request.
    expect(seen.connections - before.connections).toBeLessThanOrEqual(3);
    // A large answer is dropped unread past the limit; the status still counts.
    expect(await egressSend(`http://127.0.0.1:${port}/large`, { ...post }, { ...policy, maxResponseBytes: 1000 })).toEqual({ status: 200 });
  });

  it('answers a redirect as it is, without following it', async () => {
    expect(await egressSend(`http://127.0.0.1:${port}/redirect`, post, { allowLoopback: true })).toEqual({ status: 302 });
  });

  it('gives up after the policy time with a TimeoutError', async () => {
    const started = Date.now();
    expect(await refusal(egressSend(`http://127.0.0.1:${port}/slow`, post, { allowLoopback: true, timeoutMs: 300 }))).toBe('other: TimeoutError');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
