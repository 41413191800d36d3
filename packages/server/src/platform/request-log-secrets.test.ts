import { randomInt } from 'node:crypto';
import { endpointPath, paths } from '@portal/contracts';
import { allEndpoints } from '@portal/contracts/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { capturedLog } from '../../test/logs';
import { LOGGED_PATH_PARAMS } from './redact-url';

/**
 * What the server logs for requests that carry one-time tokens in their path or query, over
 * HTTP against the real app at LOG_LEVEL=info: every route with a parameter (each `/v3`
 * declaration, each page of the web's route table, the provider's and the sign-in flows' own),
 * each token a value recognisable in the whole log output.
 */
let server: TestServer;
const log = capturedLog();

beforeAll(async () => {
  server = await startTestServer({ listen: true, env: { LOG_LEVEL: 'info' }, logStream: log.stream() });
});
afterAll(() => server.close());

/** Letters only (so it fits any parameter's pattern), never found in a log by chance. */
function oneTimeValue(): string {
  return `qzx${Array.from({ length: 16 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;
}

/** Query names that carry codes and tokens in the flows the server takes part in. */
const SECRET_QUERY = ['token', 'code', 'state', 'user_code', 'handoff', 'ticket', 'interaction', 'id_token_hint', 'request_uri', 'SAMLResponse', 'RelayState', 'access_token', 'password', 'otp'];

interface Probe {
  method: string;
  url: string;
  secrets: string[];
  /** Kept in the line, so a missing line is not taken for a clean one. */
  marker: string;
}

/** A URL with `{name}` or `:name` parameters filled: identifiers with a plain value, the rest with a one-time value. */
function probe(method: string, template: string, parameter: RegExp, keep: (name: string) => boolean): Probe {
  const secrets: string[] = [];
  const marker = oneTimeValue();
  const path = template.replace(parameter, (_whole, name: string) => {
    if (keep(name)) return name === 'product' ? 'locker' : 'visible';
    const value = oneTimeValue();
    secrets.push(value);
    return value;
  });
  const query = new URLSearchParams({ probe: marker });
  for (const name of SECRET_QUERY) {
    const value = oneTimeValue();
    secrets.push(value);
    query.set(name, value);
  }
  return { method, url: `${path}?${query.toString()}`, secrets, marker };
}

const declaredWithParams = allEndpoints.filter((endpoint) => endpoint.path.includes('{'));
const declaredProbes = declaredWithParams.map((endpoint) => probe(endpoint.method, `/v3${endpoint.path}`, /\{(\w+)\}/g, (name) => LOGGED_PATH_PARAMS.has(name)));
const pageProbes = Object.values(paths)
  .filter((pattern) => pattern.includes(':'))
  .map((pattern) => probe('GET', pattern, /:(\w+)\??/g, (name) => name === 'username'));
/** The provider's and the sign-in flows' pages outside both tables, every `:name` of them secret. */
const flowPages = [
  '/o/authorize/:uid', '/o/interaction/:uid', '/o/authorize', '/oidc/token', '/oidc/session/end', '/oidc/device/auth', '/callback', '/sso/redirect', '/login/quick-app',
  // Past a token page's parameter, and an unknown page under a token page.
  '/reset-pwd/:token/more', '/confirmation/:token/:other/x',
];
/** With the SAML hand-off, whose IdP identifier names a thing. */
const flowProbes = [...flowPages.map((page) => probe('GET', page, /:(\w+)/g, () => false)), probe('POST', '/v3/_auth/sso/saml/:identifier/acs', /:(\w+)/g, () => true)];

async function send({ method, url }: Probe): Promise<void> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    redirect: 'manual',
    ...(method === 'GET' || method === 'DELETE' ? {} : { headers: { 'content-type': 'application/json', origin: server.url }, body: '{}' }),
  });
  await response.arrayBuffer();
}

/** The one-time values that reached the log, each with its request and the start of the line that carried it. */
function leaks(probes: Probe[]): string[] {
  const lines = log.text.split('\n');
  return probes.flatMap((probe) =>
    probe.secrets.filter((secret) => log.text.includes(secret)).map((secret) => `${probe.method} ${probe.url.split('?')[0]} ${secret}: ${lines.find((line) => line.includes(secret))?.slice(0, 240)}`),
  );
}

/** Probes that left no request line at all (so a silent log cannot pass for a clean one). */
const unlogged = (probes: Probe[]) => probes.filter((probe) => !log.text.includes(`probe=${probe.marker}`)).map((probe) => `${probe.method} ${probe.url}`);

describe('request logs never carry one-time tokens', () => {
  it('keeps only parameters that name things, none that prove anything', () => {
    for (const name of LOGGED_PATH_PARAMS) expect(name).not.toMatch(/token|code|secret|key|uid|hash|ticket|handoff|password|email/i);
    // The walk covers the declared routes with a token-like parameter (the provider's interaction, say).
    expect(declaredWithParams.some((endpoint) => endpoint.path.includes('{uid}'))).toBe(true);
    expect(declaredWithParams.length).toBeGreaterThan(20);
  });

  it('masks every declared /v3 route’s secret path parameters and query codes', async () => {
    for (const one of declaredProbes) await send(one);
    expect(unlogged(declaredProbes)).toEqual([]);
    expect(leaks(declaredProbes)).toEqual([]);
  });

  it('masks the link tokens of every page of the web’s route table', async () => {
    for (const one of pageProbes) await send(one);
    expect(unlogged(pageProbes)).toEqual([]);
    expect(leaks(pageProbes)).toEqual([]);
  });

  it('masks the provider’s interaction ids and codes, SAML hand-off codes and device user codes', async () => {
    for (const one of flowProbes) await send(one);
    expect(unlogged(flowProbes)).toEqual([]);
    expect(leaks(flowProbes)).toEqual([]);
  });

  it('still says which route and which thing a request was about', async () => {
    const route = allEndpoints.find((endpoint) => endpoint.path === '/sso/me/api-keys/{id}')!;
    const id = '0b7d7a62-0d5e-4b1c-9a43-7d1f4b8e2c11';
    await send({ method: route.method, url: `/v3${endpointPath(route, { id })}?probe=x`, secrets: [], marker: 'x' });
    expect(log.text).toContain(`"url":"/v3/sso/me/api-keys/${id}?probe=x"`);
  });
});
