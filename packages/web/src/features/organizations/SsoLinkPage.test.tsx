import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { peekSessionUser } from '../../lib/session';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { ada, locationOf, renderAt } from '../../test/render';

const LINK = '/sso/me/organization/sso/link';
const waiting = { organization_name: 'Acme', email: 'ada@acme.test' };

let server: FakeApi;

beforeEach(() => {
  server = fakeApi();
  sessionStorage.clear();
  server.on(`GET ${LINK}`, { status: 200, body: waiting });
});

afterEach(async () => {
  await act(() => applyLanguage('en'));
});

/** The link page, signed in, confirmed: the calls made from the confirmation on. */
async function confirmLink(language: 'en' | 'vi' = 'en') {
  const view = renderAt('/organization/sso/link', { user: ada });
  await act(() => applyLanguage(language));
  const confirm = await screen.findByRole('button', { name: language === 'en' ? 'Link and join' : /^Liên kết/ });
  const from = server.calls.length;
  fireEvent.click(confirm);
  return { ...view, callsSince: () => server.calls.slice(from).map((call) => `${call.method} ${call.path}`) };
}

describe('/organization/sso/link', () => {
  it('links, says so and opens the organization when the organization does not require SSO', async () => {
    server.on(`POST ${LINK}`, { status: 200, body: { ...waiting, sso_required: false } });
    const { router } = await confirmLink();
    await waitFor(() => expect(locationOf(router)).toBe('/organization'));
    expect(server.toasts).toContainEqual({ kind: 'success', message: "Your account is linked to Acme's single sign-on" });
    expect(peekSessionUser()).toEqual(ada);
  });

  it('where SSO is required, goes to company SSO sign-in with the email filled in and says why, reading nothing on the ended session', async () => {
    server.on(`POST ${LINK}`, { status: 200, body: { ...waiting, sso_required: true } });
    // The session that confirmed has ended: anything read on it would answer 401 and sign the page out to /login.
    server.on(`GET ${LINK}`, { status: 401, body: { code: 'unauthorized', message: 'Unauthorized' } });
    const { router, callsSince } = await confirmLink();
    await waitFor(() => expect(locationOf(router)).toBe('/login/sso?next=%2Forganization'));
    expect((await screen.findByTestId('sso-required-notice')).textContent).toBe('Your organization requires single sign-on (SSO). Sign in with your company SSO instead');
    expect(screen.getByLabelText('SSO identifier or work email')).toHaveProperty('value', 'ada@acme.test');
    expect(server.toasts).toContainEqual({ kind: 'success', message: "Your account is linked to Acme's single sign-on" });
    expect(callsSince()).toEqual([`POST ${LINK}`]);
    expect(peekSessionUser()).toBeNull();
  });

  it('words the notice in Vietnamese too', async () => {
    server.on(`POST ${LINK}`, { status: 200, body: { ...waiting, sso_required: true } });
    const { router } = await confirmLink('vi');
    await waitFor(() => expect(locationOf(router)).toBe('/login/sso?next=%2Forganization'));
    expect((await screen.findByTestId('sso-required-notice')).textContent).toBe('Tổ chức của bạn yêu cầu đăng nhập một lần (SSO). Hãy đăng nhập bằng SSO của công ty');
  });
});

describe('/login/sso', () => {
  it('shows no notice when opened on its own', async () => {
    renderAt('/login/sso');
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(screen.queryByTestId('sso-required-notice')).toBeNull();
  });
});
