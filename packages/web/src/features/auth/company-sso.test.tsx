import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { completeSignIn } from '../../lib/sign-in';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { locationOf, renderAt } from '../../test/render';

vi.mock('../../lib/sign-in', async (original) => ({ ...(await original<typeof import('../../lib/sign-in')>()), completeSignIn: vi.fn(async () => undefined) }));

let server: FakeApi;
const assign = vi.fn();

beforeEach(() => {
  server = fakeApi();
  sessionStorage.clear();
  vi.mocked(completeSignIn).mockClear();
  assign.mockClear();
  vi.stubGlobal('location', { ...window.location, assign, search: window.location.search });
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => applyLanguage('en'));
});

describe('/login/sso', () => {
  it('asks for the identifier, then goes to the IdP the server answers', async () => {
    renderAt('/login/sso?next=%2Fsecurity');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Enter your SSO identifier or work email');
    expect(server.callsTo('POST /_auth/sso/start')).toEqual([]);
    server.on('POST /_auth/sso/start', { status: 200, body: { url: 'https://idp.acme.test/authorize?x=1', protocol: 'oidc' } });
    fireEvent.change(screen.getByLabelText('SSO identifier or work email'), { target: { value: ' acme ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.acme.test/authorize?x=1'));
    expect(server.callsTo('POST /_auth/sso/start')).toEqual([{ identifier: 'acme' }]);
    // The page the sign-in started from waits for /sso/redirect.
    expect(sessionStorage.getItem('portal.social.search')).toBe('?next=%2Fsecurity');
  });

  it("shows 'SSO identifier invalid' for an unknown identifier", async () => {
    server.on('POST /_auth/sso/start', { status: 400, body: { code: 'sso.identifier_invalid', message: 'SSO identifier invalid' } });
    renderAt('/login/sso');
    fireEvent.change(await screen.findByLabelText('SSO identifier or work email'), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('SSO identifier invalid');
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('/sso/redirect', () => {
  it('finishes an OpenID Connect answer once and signs in', async () => {
    server.on('POST /_auth/sso/finish', { status: 200, body: { token: 't' } });
    renderAt('/sso/redirect?code=abc&state=xyz');
    await waitFor(() => expect(completeSignIn).toHaveBeenCalled());
    expect(server.callsTo('POST /_auth/sso/finish')).toEqual([{ code: 'abc', state: 'xyz' }]);
  });

  it("shows the ACS's refusal and leads back to /login/sso", async () => {
    const view = renderAt('/sso/redirect?error=sso.response_invalid');
    expect((await screen.findByTestId('sso-error')).textContent).toContain("Your organization's identity provider sent an answer that cannot be accepted");
    expect(server.callsTo('POST /_auth/sso/finish')).toEqual([]);
    fireEvent.click(screen.getByRole('link', { name: 'Try company SSO again' }));
    await waitFor(() => expect(locationOf(view.router)).toBe('/login/sso'));
  });

  it("words the server's refusal with its email", async () => {
    server.on('POST /_auth/sso/finish', { status: 403, body: { code: 'sso.domain_not_verified', message: 'x', details: { email: 'jo@gmail.test' } } });
    renderAt('/sso/redirect?handoff=h1');
    expect((await screen.findByTestId('sso-error')).textContent).toContain('Your organization has not verified the domain of jo@gmail.test');
    expect(server.callsTo('POST /_auth/sso/finish')).toEqual([{ handoff: 'h1' }]);
  });
});
