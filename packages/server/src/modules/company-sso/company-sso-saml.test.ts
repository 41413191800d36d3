import { describe, expect, it } from 'vitest';
import { companySsoOrganizations } from '../../../test/company-sso-organizations';

/**
 * Company SSO through an organization's SAML IdP, which signs real assertions (xml-crypto, a test
 * key pair): the one-time handoff code, the browser binding, replays and every kind of forged or
 * misdirected response.
 */
const { h, saml, userByEmail, memberRow, me } = companySsoOrganizations('127.15');
const { nextAddress, start } = h;

describe('SAML company SSO', () => {
  const acsUrl = 'http://localhost:8080/v3/_auth/sso/saml/globex/acs';
  const audience = 'http://localhost:8080/v3/_auth/sso/saml/globex';

  async function samlStart(identifier = 'hank@globex.test') {
    const started = await start(identifier);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().protocol).toBe('saml');
    const url = started.json().url as string;
    expect(url.startsWith(`${saml.ssoUrl}?SAMLRequest=`)).toBe(true);
    const request = saml.readRequest(url);
    expect(request).toMatchObject({ acsUrl, issuer: audience });
    // The browser that started it: only it takes the handoff code.
    const cookie = started.cookies.find((item) => item.name === 'portal_sso');
    expect(cookie?.httpOnly).toBe(true);
    return { ...request, cookie: cookie!.value };
  }
  const post = (SAMLResponse: string, identifier = 'globex') =>
    h.server.app.inject({
      method: 'POST',
      url: `/v3/_auth/sso/saml/${identifier}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.acme.test', 'sec-fetch-site': 'cross-site' },
      payload: new URLSearchParams({ SAMLResponse, RelayState: '' }).toString(),
      remoteAddress: nextAddress(),
    });
  const finishHandoff = (handoff: string, cookie?: string) =>
    h.server.app.inject({ method: 'POST', url: '/v3/_auth/sso/finish', payload: { handoff }, cookies: cookie ? { portal_sso: cookie } : {}, remoteAddress: nextAddress() });
  const redirected = (response: { statusCode: number; headers: Record<string, unknown> }) => {
    expect(response.statusCode).toBe(303);
    return new URL(String(response.headers.location));
  };

  it('signs in through a signed assertion: the ACS hands the browser a one-time code, never the assertion', async () => {
    const request = await samlStart();
    const response = saml.response({ requestId: request.id, acsUrl, audience, nameId: 'globex-jit-1', email: 'Wanda@Globex.test', name: 'Wanda' });
    const target = redirected(await post(response));
    expect(target.origin + target.pathname).toBe('http://localhost:8080/sso/redirect');
    expect([...target.searchParams.keys()]).toEqual(['handoff']);
    expect(target.href).not.toContain(response.slice(0, 40));
    const handoff = target.searchParams.get('handoff')!;
    const signedIn = await finishHandoff(handoff, request.cookie);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await me(signedIn.json().token)).json().email).toBe('wanda@globex.test');
    expect(await memberRow('wanda@globex.test')).toMatchObject({ organizationId: (await h.organizations.resolve('Globex')).id });
    // The code is spent.
    expect((await finishHandoff(handoff, request.cookie)).json().code).toBe('sso.state_invalid');
    expect((await finishHandoff('made-up', request.cookie)).json().code).toBe('sso.state_invalid');
  });

  it('hands the sign-in only to the browser that started it: a code redeemed elsewhere is refused and stays unused', async () => {
    const victim = await samlStart();
    const target = redirected(await post(saml.response({ requestId: victim.id, acsUrl, audience, nameId: 'globex-bound', email: 'bound@globex.test', name: 'Bound' })));
    const handoff = target.searchParams.get('handoff')!;
    // A browser with no started sign-in, or one that started its own, cannot take it.
    const noCookie = await finishHandoff(handoff);
    expect([noCookie.statusCode, noCookie.json().code]).toEqual([400, 'sso.state_invalid']);
    expect(noCookie.json().token).toBeUndefined();
    const attacker = await samlStart();
    expect((await finishHandoff(handoff, attacker.cookie)).json().code).toBe('sso.state_invalid');
    expect((await finishHandoff(handoff, 'v1:garbage:garbage')).json().code).toBe('sso.state_invalid');
    expect(await userByEmail('bound@globex.test')).toBeUndefined();
    // The browser that started it still can.
    const signedIn = await finishHandoff(handoff, victim.cookie);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await me(signedIn.json().token)).json().email).toBe('bound@globex.test');
  });

  it('refuses a replayed response', async () => {
    const request = await samlStart();
    const response = saml.response({ requestId: request.id, acsUrl, audience, nameId: 'globex-replay', email: 'replay@globex.test' });
    expect(redirected(await post(response)).searchParams.get('handoff')).toBeTruthy();
    expect(redirected(await post(response)).searchParams.get('error')).toBe('sso.response_invalid');
  });

  it('refuses tampered, unsigned, foreign-signed, expired, wrong-audience, wrong-recipient and unsolicited responses', async () => {
    const cases: Array<[string, (id: string) => string]> = [
      ['tampered', (id) => Buffer.from(Buffer.from(saml.response({ requestId: id, acsUrl, audience, nameId: 'victim', email: 'victim@globex.test' }), 'base64').toString().replace('victim@globex.test', 'hank@globex.test')).toString('base64')],
      ['unsigned', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 'u', email: 'unsigned@globex.test', signer: 'none' })],
      ['stranger', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 's', email: 'stranger@globex.test', signer: 'stranger' })],
      ['expired', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 'e', email: 'expired@globex.test', validMinutes: -5 })],
      ['audience', (id) => saml.response({ requestId: id, acsUrl, audience: 'https://someone-else.test/sp', nameId: 'a', email: 'audience@globex.test' })],
      ['recipient', (id) => saml.response({ requestId: id, acsUrl, audience, nameId: 'r', email: 'recipient@globex.test', recipient: 'https://evil.test/acs' })],
      ['unsolicited', () => saml.response({ requestId: '_never-asked', acsUrl, audience, nameId: 'n', email: 'unsolicited@globex.test' })],
      ['garbage', () => 'not base64 xml'],
    ];
    for (const [name, make] of cases) {
      const request = await samlStart();
      const target = redirected(await post(make(request.id)));
      expect(target.searchParams.get('error'), name).toBe('sso.response_invalid');
      expect(target.searchParams.get('handoff'), name).toBeNull();
    }
    for (const email of ['victim@globex.test', 'unsigned@globex.test', 'stranger@globex.test', 'expired@globex.test', 'audience@globex.test', 'recipient@globex.test', 'unsolicited@globex.test']) {
      expect(await userByEmail(email), email).toBeUndefined();
    }
    // Another organization's ACS does not take Globex's answer.
    const request = await samlStart();
    expect(redirected(await post(saml.response({ requestId: request.id, acsUrl, audience, nameId: 'x', email: 'x@globex.test' }), 'acme-corp')).searchParams.get('error')).toBe('sso.identifier_invalid');
  });
});
