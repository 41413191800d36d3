import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer';
import { operatorServices, testOrganizations } from '../../../test/company-sso';
import { startTestServer, TEST_DATA_KEY, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { createDataProtection, parseDataKey } from '../../platform/data-protection';
import type { OrganizationService } from '../organizations';
import { companySsoQueries } from './queries';
import { CompanySsoAdminError } from '.';

/**
 * Server-side request forgery through a company's identity provider, under the production rule
 * (EGRESS_ALLOW_LOOPBACK=false): an issuer on loopback, a private or a metadata address is
 * refused when it is set, and an anonymous SSO start never makes the server request it (an
 * issuer stored some other way included).
 */
const PASSWORD = 'plum-orbit-cactus-917';
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let organizations: OrganizationService;
let peer: SmtpPeer;
let people = 0;
/** A service on this machine the attacker aims at: every connection and request to it counted. */
const internal = { connections: 0, requests: 0, port: 0, close: async () => undefined as void };

async function signedInOwner(label: string) {
  const email = `${label}-${++people}@egress.test`;
  await client.signUp(email, PASSWORD);
  const mail = await peer.waitFor((received) => received.to.includes(email) && /\/confirmation\/[\w-]+/.test(received.text));
  const token = /\/confirmation\/([\w-]+)/.exec(mail.text)![1]!;
  expect((await client.post('/v3/sso/users/activate', { token })).statusCode).toBeLessThan(300);
  const signedIn = await client.signIn(email, PASSWORD);
  const organization = await organizations.createNamed({ name: `Org ${label}`, adminEmail: email });
  return { email, token: signedIn.json().token as string, organization };
}

const setIssuer = (token: string, identifier: string, issuer: string) =>
  server.app.inject({
    method: 'PUT',
    url: '/v3/sso/me/organization/sso',
    payload: { protocol: 'oidc', identifier, issuer, client_id: 'portal', client_secret: 'a-long-enough-secret' },
    headers: { authorization: `Bearer ${token}` },
  });
const fieldOf = (body: { details?: { fields?: Record<string, { code: string }> } }) => Object.entries(body.details?.fields ?? {}).map(([name, field]) => [name, field.code]);

beforeAll(async () => {
  const listener = createServer((_request, response) => {
    internal.requests++;
    response.setHeader('content-type', 'application/json').end('{}');
  });
  listener.on('connection', () => internal.connections++);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  internal.port = (listener.address() as AddressInfo).port;
  internal.close = () => new Promise<void>((resolve) => listener.close(() => resolve()));
  peer = await startSmtpPeer();
  server = await startTestServer({ env: { SMTP_URL: peer.url, EGRESS_ALLOW_LOOPBACK: 'false' } });
  client = identityClient(server.app, server.database);
  organizations = testOrganizations(server);
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
  await internal.close();
});

describe('a company OIDC issuer under the production rule', () => {
  it('refuses setting an issuer on loopback, private or metadata addresses with a field error, requesting none of them', async () => {
    const owner = await signedInOwner('set');
    const cases: Array<[string, string]> = [
      [`http://127.0.0.1:${internal.port}`, 'sso.issuer_invalid'],
      [`http://localhost:${internal.port}`, 'sso.issuer_invalid'],
      [`https://127.0.0.1:${internal.port}`, 'egress.url_refused'],
      [`https://localhost:${internal.port}`, 'egress.url_refused'],
      [`https://[::ffff:127.0.0.1]:${internal.port}`, 'egress.url_refused'],
      ['https://10.0.0.8', 'egress.url_refused'],
      ['https://169.254.169.254', 'egress.url_refused'],
      ['https://metadata.google.internal', 'egress.url_refused'],
      ['https://[fd00:ec2::254]', 'egress.url_refused'],
    ];
    for (const [issuer, code] of cases) {
      const refused = await setIssuer(owner.token, 'set-team', issuer);
      expect([issuer, refused.statusCode, fieldOf(refused.json())]).toEqual([issuer, 400, [['issuer', code]]]);
    }
    // A public https issuer is still accepted.
    expect((await setIssuer(owner.token, 'set-team', 'https://login.example.com')).statusCode).toBe(200);
    expect(internal).toMatchObject({ connections: 0, requests: 0 });
  });

  it('an anonymous SSO start with a stored issuer on loopback is refused and nothing reaches loopback', async () => {
    const owner = await signedInOwner('start');
    const queries = companySsoQueries(server.database.db);
    const secrets = createDataProtection(parseDataKey(TEST_DATA_KEY)!);
    for (const [identifier, issuer] of [
      ['loop-plain', `http://127.0.0.1:${internal.port}`],
      ['loop-https', `https://127.0.0.1:${internal.port}`],
      ['loop-named', `https://localhost:${internal.port}`],
    ]) {
      // Stored as the settings and the operator command accepted it before the guard.
      const organization = identifier === 'loop-plain' ? owner.organization : await organizations.createNamed({ name: `Org ${identifier}`, adminEmail: `${identifier}@egress.test` });
      const saved = await queries.upsertConnection(
        organization.id,
        { identifier: identifier!, kind: 'oidc', oidcIssuer: issuer!, oidcClientId: 'portal', oidcClientSecret: secrets.seal('a-long-enough-secret'), samlEntityId: null, samlSsoUrl: null, samlCertificates: null },
        new Date(),
      );
      expect(saved).not.toBe('identifier_taken');
      const started = await server.app.inject({ method: 'POST', url: '/v3/_auth/sso/start', payload: { identifier } });
      expect([identifier, started.statusCode, started.json().code]).toEqual([identifier, 502, 'sso.idp_unavailable']);
    }
    expect(internal).toMatchObject({ connections: 0, requests: 0 });
  });

  it('the operator command refuses such an issuer too, saying why', async () => {
    await organizations.createNamed({ name: 'Operated', adminEmail: 'boss@operated.test' });
    const operator = operatorServices(server);
    onTestFinished(() => operator.close());
    const admin = operator.companySso;
    const refusal = (issuer: string) =>
      admin.configureOidc({ organization: 'Operated', identifier: 'operated', issuer, clientId: 'portal', clientSecret: 'a-long-enough-secret' }).then(
        () => 'accepted',
        (error: unknown) => (error instanceof CompanySsoAdminError ? error.message : `other: ${String(error)}`),
      );
    expect(await refusal(`http://127.0.0.1:${internal.port}`)).toMatch(/--oidc-issuer must be an https URL/);
    expect(await refusal(`https://localhost:${internal.port}`)).toMatch(/--oidc-issuer must be a public address/);
    expect(await refusal('https://169.254.169.254')).toMatch(/--oidc-issuer must be a public address/);
    expect(internal).toMatchObject({ connections: 0, requests: 0 });
  });
});
