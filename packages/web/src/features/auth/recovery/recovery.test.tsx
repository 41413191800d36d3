import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { applyLanguage } from '../../../lib/language';
import { captchaStub } from '../../../test/captcha-stub';
import { fakeApi, type FakeApi } from '../../../test/fake-api';
import { locationOf, renderAt } from '../../../test/render';

vi.mock('../../../components/PasswordStrength', () => ({ PasswordStrength: () => null }));
vi.mock('../../../components/captcha/CaptchaField', () => import('../../../test/captcha-stub'));

let server: FakeApi;

beforeEach(() => {
  initI18n('en');
  server = fakeApi();
  sessionStorage.clear();
});

afterEach(async () => {
  await act(() => applyLanguage('en'));
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

async function typeCode(code: string) {
  const inputs = within(await screen.findByTestId('recovery-code')).getAllByRole('textbox');
  // Mantine's PinInput takes a pasted code in its first box.
  fireEvent.change(inputs[0]!, { target: { value: code } });
}

/** /forgot up to its second step: the account `ada`, then the recovery email typed (not sent yet). */
async function reachRecoveryEmail(email: string) {
  renderAt('/forgot');
  await screen.findByLabelText('Email or username');
  type('Email or username', 'ada');
  press('Continue');
  await screen.findByLabelText('Recovery email');
  type('Recovery email', email);
}

describe('/forgot', () => {
  it('shows the captcha when the server asks for it after wrong recovery emails, and sends its answer', async () => {
    server.on('POST /sso/password/forgot/verify-email', (body) =>
      (body as { captcha?: string }).captcha === 'captcha-answer'
        ? { status: 204 }
        : { status: 400, body: { code: 'auth.recovery_email_mismatch', message: 'x', details: { hint: 'ad***a@e***.com', captcha_required: true } } },
    );
    await reachRecoveryEmail('someone@example.com');
    expect(screen.queryByTestId('captcha')).toBeNull();
    press('Send code');
    expect(await screen.findByText('For your security, complete the check below, then send the code again.')).toBeTruthy();
    expect(await screen.findByTestId('captcha')).toBeTruthy();
    type('Recovery email', 'ada@example.com');
    press('Send code');
    expect(await screen.findByTestId('recovery-code')).toBeTruthy();
    expect(server.callsTo('POST /sso/password/forgot/verify-email').at(-1)).toEqual({ identifier: 'ada', email: 'ada@example.com', captcha: 'captcha-answer' });
  });

  it('"Complete the captcha" goes once the captcha says Verified, without another send', async () => {
    server.on('POST /sso/password/forgot/verify-email', { status: 400, body: { code: 'auth.captcha_required', message: 'Complete the captcha', details: { captcha_required: true } } });
    await reachRecoveryEmail('ada@example.com');
    press('Send code');
    expect(await screen.findByText('Complete the captcha')).toBeTruthy();
    await screen.findByTestId('captcha');
    act(() => captchaStub.solve());
    await waitFor(() => expect(screen.queryByText('Complete the captcha')).toBeNull());
    expect(server.callsTo('POST /sso/password/forgot/verify-email')).toHaveLength(1);
  });

  it('a message that is not about the captcha stays when the captcha says Verified', async () => {
    server.on('POST /sso/password/forgot/verify-email', { status: 400, body: { code: 'auth.recovery_email_mismatch', message: 'x', details: { hint: 'ad***a@e***.com', captcha_required: true } } });
    await reachRecoveryEmail('someone@example.com');
    press('Send code');
    await screen.findByTestId('captcha');
    act(() => captchaStub.solve());
    expect(screen.getByText('The recovery email does not match ad***a@e***.com')).toBeTruthy();
  });

  it('identifier and method, recovery email (with the hint on a mismatch), code, new password, then sign-in', async () => {
    server.on('POST /sso/password/forgot/verify-email', (body) =>
      (body as { email: string }).email === 'ada@example.com'
        ? { status: 204 }
        : { status: 400, body: { code: 'auth.recovery_email_mismatch', message: 'x', details: { hint: 'ad***a@e***.com' } } },
    );
    server.on('POST /sso/password/forgot/verify-code', (body) =>
      (body as { code: string }).code === '123456'
        ? { status: 200, body: { reset_token: 'reset-1' } }
        : { status: 400, body: { code: 'auth.code_invalid', message: 'Verification code incorrect or expired' } },
    );
    server.on('POST /sso/password/reset', { status: 204 });
    const { router } = renderAt('/forgot');

    // 1. The account and the way to receive a code (email, the only one).
    await screen.findByRole('button', { name: 'Continue' });
    press('Continue');
    expect(await screen.findByText('The email field is required')).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Receive a code by email' }) as HTMLInputElement).checked).toBe(true);
    type('Email or username', 'ada');
    press('Continue');

    // 2. The recovery email; a wrong one shows the first and last parts of the right one.
    type('Recovery email', 'someone@example.com');
    press('Send code');
    expect(await screen.findByText('The recovery email does not match ad***a@e***.com')).toBeTruthy();
    expect(screen.getByText('The hint shows the first and last parts of the right address.')).toBeTruthy();
    type('Recovery email', 'ada@example.com');
    press('Send code');

    // 3. The code.
    expect(await screen.findByRole('heading', { name: 'Enter the code' })).toBeTruthy();
    press('Verify');
    // The spec's validation rules: the recovery code is 6 digits, in those words.
    expect(await screen.findByText('Recovery code is 6 digits')).toBeTruthy();
    await typeCode('654321');
    press('Verify');
    expect(await screen.findByText('Verification code incorrect or expired')).toBeTruthy();
    await typeCode('123456');
    press('Verify');

    // 4. The new password, confirmed.
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    type('New password', 'Staple-Lantern-77');
    type('Confirm password', 'Staple-Lantern-78');
    press('Reset password');
    expect(await screen.findByText('Confirm password is not match!')).toBeTruthy();
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'vi' } });
    expect(await screen.findByText('Mật khẩu xác nhận không khớp!')).toBeTruthy();
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'en' } });
    await screen.findByLabelText('Confirm password');
    type('Confirm password', 'Staple-Lantern-77');
    press('Reset password');

    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    expect(((await screen.findByLabelText('Email or username')) as HTMLInputElement).value).toBe('ada');
    expect(server.toasts).toEqual([{ kind: 'success', message: 'Your password has been reset. Sign in with your new password.' }]);
    expect(server.callsTo('POST /sso/password/forgot/verify-code').at(-1)).toEqual({ identifier: 'ada', code: '123456' });
    expect(server.callsTo('POST /sso/password/reset')).toEqual([{ token: 'reset-1', new_password: 'Staple-Lantern-77', confirm_password: 'Staple-Lantern-77' }]);
  });

  it("the server's refusal of the new password shows under it", async () => {
    server.on('POST /sso/password/forgot/verify-email', { status: 204 });
    server.on('POST /sso/password/forgot/verify-code', { status: 200, body: { reset_token: 'reset-2' } });
    server.on('POST /sso/password/reset', {
      status: 400,
      body: {
        code: 'auth.password_same_as_old',
        message: 'Choose a new password different from the old one',
        details: { fields: { new_password: { code: 'auth.password_same_as_old', message: 'Choose a new password different from the old one' } } },
      },
    });
    renderAt('/forgot');
    await screen.findByLabelText('Email or username');
    type('Email or username', 'ada@example.com');
    press('Continue');
    // The identifier is an email: it is offered as the recovery email.
    expect((screen.getByLabelText('Recovery email') as HTMLInputElement).value).toBe('ada@example.com');
    press('Send code');
    await typeCode('123456');
    press('Verify');
    await screen.findByLabelText('New password');
    type('New password', 'Correct-Horse-42');
    type('Confirm password', 'Correct-Horse-42');
    press('Reset password');
    expect(await screen.findByText('Choose a new password different from the old one')).toBeTruthy();
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'vi' } });
    expect(await screen.findByText('Chọn mật khẩu mới khác mật khẩu cũ')).toBeTruthy();
  });
});

describe('/reset-pwd/:token', () => {
  it('an invalid or expired link: says so, with the way to start again', async () => {
    server.on('POST /sso/password/reset/check', { status: 400, body: { code: 'auth.reset_link_invalid', message: 'This reset link is invalid or has expired' } });
    renderAt('/reset-pwd/old');
    expect(await screen.findByText('This reset link is invalid or has expired')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new reset' }).getAttribute('href')).toBe('/forgot');
    expect(server.toasts).toEqual([]);
  });

  it('no token: the same, without asking the server', async () => {
    renderAt('/reset-pwd');
    expect(await screen.findByRole('heading', { name: 'Reset link invalid or expired' })).toBeTruthy();
    expect(server.calls).toEqual([]);
  });

  it('a valid link: the new password, then sign-in', async () => {
    server.on('POST /sso/password/reset/check', { status: 204 });
    server.on('POST /sso/password/reset', { status: 204 });
    const { router } = renderAt('/reset-pwd/good');
    expect(await screen.findByText('Reset links work for 10 minutes after we send them.')).toBeTruthy();
    type('New password', 'short');
    press('Reset password');
    expect(await screen.findByText('Enter a password of at least 8 characters')).toBeTruthy();
    expect(await screen.findByText('This field may not be blank.')).toBeTruthy();
    type('New password', 'Staple-Lantern-77');
    type('Confirm password', 'Staple-Lantern-77');
    press('Reset password');
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
    expect(server.callsTo('POST /sso/password/reset')).toEqual([{ token: 'good', new_password: 'Staple-Lantern-77', confirm_password: 'Staple-Lantern-77' }]);
  });
});
