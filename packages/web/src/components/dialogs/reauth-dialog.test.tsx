import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mfaEndpoints, passkeyEndpoints } from '@portal/contracts';
import { call } from '../../lib/api';
import { applyLanguage } from '../../lib/language';
import { renderAccount, setUpAccountTest, type FakeServer } from '../../test/account-kit';
import { ReauthDialog } from './ReauthDialog';

/**
 * The re-authentication dialog: a sensitive change answered 403
 * `auth.reauth_required` opens it, and "Use a passkey" proves it with one of the account's
 * passkeys. The browser's WebAuthn (absent from jsdom) is stood in for by a credential object
 * shaped as navigator.credentials.get() answers; @simplewebauthn/browser itself runs.
 */
const bytes = (text: string) => new TextEncoder().encode(text).buffer;
let browserAnswer: () => Promise<unknown>;

beforeEach(() => {
  Object.defineProperty(window, 'PublicKeyCredential', { configurable: true, value: function PublicKeyCredential() {} });
  Object.defineProperty(navigator, 'credentials', { configurable: true, value: { get: () => browserAnswer() } });
  browserAnswer = async () => ({
    id: 'cred-1',
    rawId: bytes('cred-1'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: { authenticatorData: bytes('auth-data'), clientDataJSON: bytes('{"challenge":"c"}'), signature: bytes('sig'), userHandle: bytes('user-1') },
    getClientExtensionResults: () => ({}),
  });
});

afterEach(async () => {
  cleanup();
  Reflect.deleteProperty(window, 'PublicKeyCredential');
  Reflect.deleteProperty(navigator, 'credentials');
  await applyLanguage('en');
});

const overview = (account: { password: boolean; passkeys: number }) => ({
  has_password: account.password,
  password_changed_at: null,
  two_factor: { method: account.password ? 'totp' : null, recovery_codes_remaining: 10 },
  passkeys: account.passkeys,
  recent_sessions: [],
});

/** A server whose first sensitive call is refused as too old, then accepted after a proof. */
function server(account: { password: boolean; passkeys: number }): FakeServer {
  let proved = false;
  return ({ path }) => {
    if (path === '/sso/me/security') return [200, overview(account)];
    if (path === '/sso/me/reauth/passkey/options') return [200, { challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'Y3JlZC0x', type: 'public-key' }], userVerification: 'required' }];
    if (path === '/sso/me/reauth') {
      proved = true;
      return [204];
    }
    if (path === '/sso/me/2fa/disable') return proved ? [204] : [403, { code: 'auth.reauth_required', message: 'Confirm it is you to continue' }];
    return [404];
  };
}

const turnTwoStepOff = () => call(mfaEndpoints.disable, { body: { password: 'pw', code: '123456' } }, { handle: [400] });

describe('ReauthDialog', () => {
  it('offers "Use a passkey" beside the password, sends the assertion, and repeats the change', async () => {
    const kit = await setUpAccountTest(server({ password: true, passkeys: 1 }));
    renderAccount(<ReauthDialog />);
    await waitFor(() => expect(document.body).toBeTruthy());
    const done = turnTwoStepOff();
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    await done;
    const reauth = kit.requests.find((request) => request.path === '/sso/me/reauth');
    expect(reauth?.body).toMatchObject({ passkey: { id: 'cred-1', type: 'public-key', response: { signature: expect.any(String), userHandle: expect.any(String) } } });
    expect(kit.requests.map((request) => request.path)).toEqual(['/sso/me/2fa/disable', '/sso/me/security', '/sso/me/reauth/passkey/options', '/sso/me/reauth', '/sso/me/2fa/disable']);
  });

  it('asks a passkey-only account for its passkey, and says so when the browser prompt is cancelled', async () => {
    await setUpAccountTest(server({ password: false, passkeys: 2 }));
    browserAnswer = async () => {
      throw new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');
    };
    renderAccount(<ReauthDialog />);
    void turnTwoStepOff().catch(() => undefined);
    expect(await screen.findByText('This change needs a recent sign-in. Use your passkey to continue.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText('The passkey prompt was closed before it finished. Try again.')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('asks a two-step account adding a passkey for its second step, never the password, and repeats the change', async () => {
    let proved = false;
    const kit = await setUpAccountTest(({ path }) => {
      if (path === '/sso/me/security') return [200, overview({ password: true, passkeys: 0 })];
      if (path === '/sso/me/reauth') {
        proved = true;
        return [204];
      }
      if (path === '/sso/users/me/webauthn/enable/options') {
        return proved ? [200, { challenge: 'c' }] : [403, { code: 'auth.reauth_required', message: 'Confirm it is you to continue', details: { second_step: true } }];
      }
      return [404];
    });
    renderAccount(<ReauthDialog />);
    const done = call(passkeyEndpoints.enableOptions, { body: { algorithms: ['es256'] } });
    expect(await screen.findByText('Adding a passkey needs your second step. Enter a code from your second step or a recovery code to continue.')).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await done;
    expect(kit.requests.find((request) => request.path === '/sso/me/reauth')?.body).toEqual({ code: '123456' });
    expect(kit.requests.filter((request) => request.path === '/sso/users/me/webauthn/enable/options')).toHaveLength(2);
  });

  it('shows no passkey button to an account without one, and speaks Vietnamese', async () => {
    await setUpAccountTest(server({ password: true, passkeys: 0 }), 'vi');
    renderAccount(<ReauthDialog />);
    void turnTwoStepOff().catch(() => undefined);
    expect(await screen.findByLabelText('Mật khẩu')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Dùng khóa truy cập' })).toBeNull();
  });
});
