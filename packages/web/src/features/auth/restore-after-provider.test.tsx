import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { completeSignIn } from '../../lib/sign-in';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';

vi.mock('../../lib/sign-in', async (original) => ({ ...(await original<typeof import('../../lib/sign-in')>()), completeSignIn: vi.fn(async () => undefined) }));

/**
 * A social or company-SSO sign-in comes back at /callback or /sso/redirect with the provider's
 * query, not the one it started with: restoring an account scheduled for deletion there must
 * still land at the `next` the sign-in started with (kept in this tab's storage), not home.
 */
let server: FakeApi;

const deletionPending = { status: 403, body: { code: 'account.deletion_pending', message: 'x', details: { restore_token: 'rt-1', deletion_due_at: '2030-01-15T00:00:00.000Z' } } };

beforeEach(() => {
  server = fakeApi();
  sessionStorage.clear();
  vi.mocked(completeSignIn).mockClear();
  // The query of the page the sign-in started on (lib/social.ts keeps it across the provider's round trip).
  sessionStorage.setItem('portal.social.search', '?next=%2Fsecurity');
  server.on('POST /sso/auth/restore', { status: 200, body: { token: 't' } });
});

afterEach(async () => {
  window.history.replaceState(null, '', '/');
  await act(() => applyLanguage('en'));
});

async function restoreFromOffer() {
  fireEvent.click(await screen.findByTestId('restore-account'));
  await waitFor(() => expect(completeSignIn).toHaveBeenCalled());
  expect(server.callsTo('POST /sso/auth/restore')).toEqual([{ restore_token: 'rt-1' }]);
}

describe('the restore offer after an outside provider', () => {
  it('after a social sign-in, restores and goes to the next the sign-in started with', async () => {
    server.on('POST /_auth/oauth/google/authorize', deletionPending);
    // /callback reads the provider's answer from the address bar itself.
    window.history.replaceState(null, '', '/callback?code=c1&state=google.s1');
    renderAt('/callback?code=c1&state=google.s1');
    await restoreFromOffer();
    expect(vi.mocked(completeSignIn).mock.calls).toEqual([['/security']]);
  });

  it('after a company SSO sign-in, restores and goes to the next the sign-in started with', async () => {
    server.on('POST /_auth/sso/finish', deletionPending);
    renderAt('/sso/redirect?code=c2&state=s2');
    await restoreFromOffer();
    expect(vi.mocked(completeSignIn).mock.calls).toEqual([['/security']]);
  });

  it('after a company SSO sign-in and its second step, restores and goes to the next the sign-in started with', async () => {
    server.on('POST /_auth/sso/finish', { status: 200, body: { mfa_required: true, mfa_token: 'mfa-1', method: 'totp' } });
    server.on('POST /sso/auth/mfa', deletionPending);
    renderAt('/sso/redirect?code=c3&state=s3');
    fireEvent.change(within(await screen.findByTestId('second-factor-code')).getAllByRole('textbox')[0]!, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await restoreFromOffer();
    expect(vi.mocked(completeSignIn).mock.calls).toEqual([['/security']]);
  });
});
