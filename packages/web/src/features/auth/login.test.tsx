import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLanguage } from '../../lib/language';
import { completeSignIn } from '../../lib/sign-in';
import { captchaStub } from '../../test/captcha-stub';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { locationOf, renderAt } from '../../test/render';

vi.mock('../../components/captcha/CaptchaField', () => import('../../test/captcha-stub'));
vi.mock('../../lib/sign-in', async (original) => ({ ...(await original<typeof import('../../lib/sign-in')>()), completeSignIn: vi.fn(async () => undefined) }));

let server: FakeApi;

beforeEach(() => {
  server = fakeApi();
  sessionStorage.clear();
  vi.mocked(completeSignIn).mockClear();
});

afterEach(async () => {
  await act(() => applyLanguage('en'));
});

const pickLanguage = (language: 'en' | 'vi') => fireEvent.change(screen.getByTestId('language-picker'), { target: { value: language } });

async function toPasswordStep(identifier = 'ada@example.com', from = '/login') {
  const view = renderAt(from);
  fireEvent.change(await screen.findByLabelText('Email or username'), { target: { value: identifier } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Enter your password' });
  return view;
}

function submitPassword(password: string) {
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('/login: the identifier step', () => {
  it('requires the email or username, in the language shown', async () => {
    renderAt('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The email field is required')).toBeTruthy();
    pickLanguage('vi');
    expect(await screen.findByText('Nhập email')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email hoặc tên người dùng'), { target: { value: 'two words' } });
    expect(await screen.findByText('Email hoặc tên người dùng không hợp lệ')).toBeTruthy();
  });

  it('goes to the password step with the identifier, keeping `next`', async () => {
    const { router } = await toPasswordStep('ada', '/login?next=%2Fsecurity');
    expect(locationOf(router)).toBe('/login/password?next=%2Fsecurity');
    expect(screen.getByTestId('login-identifier').textContent).toBe('ada');
    expect(server.calls).toEqual([]);
  });

  it('links to sign-up, recovery and the code sign-in with the query kept', async () => {
    renderAt('/login?SERVICE_SCOPE=secret');
    expect((await screen.findByRole('link', { name: 'Create an account' })).getAttribute('href')).toBe('/register?SERVICE_SCOPE=secret');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/forgot?SERVICE_SCOPE=secret');
    expect(screen.getByRole('link', { name: 'Sign in with an email code' }).getAttribute('href')).toBe('/login/quick?SERVICE_SCOPE=secret');
  });
});

describe('/login/password', () => {
  it('without an identifier goes back to the first step', async () => {
    const { router } = renderAt('/login/password?next=%2Fsecurity');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(locationOf(router)).toBe('/login?next=%2Fsecurity');
  });

  it('signs in: the credentials go to /sso/auth, then to where `next` says', async () => {
    server.on('POST /sso/auth', { status: 200, body: { token: 't' } });
    await toPasswordStep('ada@example.com', '/login?next=%2Fsecurity');
    submitPassword('Correct-Horse');
    await waitFor(() => expect(completeSignIn).toHaveBeenCalledWith('/security'));
    expect(server.callsTo('POST /sso/auth')).toEqual([{ email: 'ada@example.com', password: 'Correct-Horse' }]);
  });

  it('requires the password', async () => {
    await toPasswordStep();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a password')).toBeTruthy();
    expect(server.calls).toEqual([]);
  });

  it('shows a refusal inline, and the captcha when the server asks for it', async () => {
    server.on('POST /sso/auth', { status: 400, body: { code: 'auth.invalid_credentials', message: 'Email or password not valid', details: { captcha_required: true } } });
    await toPasswordStep();
    expect(screen.queryByTestId('captcha')).toBeNull();
    submitPassword('wrong');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Email or password not valid');
    expect(await screen.findByTestId('captcha')).toBeTruthy();
    expect(server.toasts).toEqual([]);

    pickLanguage('vi');
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe('Email hoặc mật khẩu không đúng'));
    pickLanguage('en');
    await screen.findByLabelText('Password');

    server.on('POST /sso/auth', { status: 200, body: { token: 't' } });
    submitPassword('right');
    await waitFor(() => expect(completeSignIn).toHaveBeenCalledWith('/'));
    expect(server.callsTo('POST /sso/auth').at(-1)).toEqual({ email: 'ada@example.com', password: 'right', captcha: 'captcha-answer' });
  });

  it('"Complete the captcha" goes once the captcha says Verified; a wrong password stays', async () => {
    server.on('POST /sso/auth', { status: 400, body: { code: 'auth.captcha_required', message: 'Complete the captcha', details: { captcha_required: true } } });
    await toPasswordStep();
    submitPassword('right');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Complete the captcha');
    await screen.findByTestId('captcha');
    act(() => captchaStub.solve());
    await waitFor(() => expect(screen.queryByTestId('login-error')).toBeNull());

    server.on('POST /sso/auth', { status: 400, body: { code: 'auth.invalid_credentials', message: 'Email or password not valid', details: { captcha_required: true } } });
    submitPassword('wrong');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Email or password not valid');
    act(() => captchaStub.solve());
    expect(screen.getByTestId('login-error').textContent).toBe('Email or password not valid');
  });

  it('says how long to wait after too many tries, and waits', async () => {
    server.on('POST /sso/auth', { status: 429, body: { code: 'rate_limited', message: 'Too many requests', details: { retry_after_seconds: 17 } } });
    await toPasswordStep();
    submitPassword('wrong');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Too many requests. Try again in 17 seconds');
    expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(true);
    expect(server.toasts).toEqual([]);
  });

  it('tells an account not activated so, and sends the activation mail again', async () => {
    server.on('POST /sso/auth', { status: 403, body: { code: 'auth.not_activated', message: 'Your account is not activated. Check your email' } });
    server.on('POST /sso/users/activation/resend', { status: 200, body: { email: 'ada@example.com' } });
    await toPasswordStep();
    submitPassword('Correct-Horse');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Your account is not activated. Check your email');
    fireEvent.click(await screen.findByRole('button', { name: 'Resend activation email' }));
    expect(await screen.findByText('If ada@example.com has an account waiting for activation, a new link is on its way.')).toBeTruthy();
    expect(server.callsTo('POST /sso/users/activation/resend')).toEqual([{ email: 'ada@example.com', captcha: 'captcha-answer' }]);
    expect(screen.getByRole('button', { name: /Resend in \d+ s/ }).hasAttribute('disabled')).toBe(true);
  });

  it("'Change' goes back to the first step with the identifier filled in", async () => {
    const { router } = await toPasswordStep('ada', '/login?next=%2Fsecurity');
    fireEvent.click(screen.getByRole('link', { name: 'Change' }));
    expect(((await screen.findByLabelText('Email or username')) as HTMLInputElement).value).toBe('ada');
    expect(locationOf(router)).toBe('/login?next=%2Fsecurity');
  });

  it('with two-step verification on: the code step, then the sign-in completes', async () => {
    server.on('POST /sso/auth', { status: 200, body: { mfa_required: true, mfa_token: 'mfa-1', method: 'totp' } });
    server.on('POST /sso/auth/mfa', (body) =>
      (body as { code?: string }).code === '123456'
        ? { status: 200, body: { token: 't' } }
        : { status: 400, body: { code: 'auth.code_invalid', message: 'Verification code incorrect or expired' } },
    );
    await toPasswordStep('ada@example.com', '/login?next=%2Fsecurity');
    submitPassword('Correct-Horse');
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeTruthy();
    expect(completeSignIn).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code')).toBeTruthy();
    const boxes = () => within(screen.getByTestId('second-factor-code')).getAllByRole('textbox');
    fireEvent.change(boxes()[0]!, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Verification code incorrect or expired')).toBeTruthy();
    fireEvent.change(boxes()[0]!, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(completeSignIn).toHaveBeenCalledWith('/security'));
    expect(server.callsTo('POST /sso/auth/mfa').at(-1)).toEqual({ mfa_token: 'mfa-1', code: '123456' });
  });

  it('with two-step verification on: the captcha once the account has spent its budget of failed second steps', async () => {
    server.on('POST /sso/auth', { status: 200, body: { mfa_required: true, mfa_token: 'mfa-3', method: 'totp' } });
    server.on('POST /sso/auth/mfa', (body) =>
      (body as { captcha?: string }).captcha === 'captcha-answer'
        ? { status: 200, body: { token: 't' } }
        : { status: 400, body: { code: 'auth.code_invalid', message: 'Verification code incorrect or expired', details: { captcha_required: true } } },
    );
    await toPasswordStep();
    submitPassword('Correct-Horse');
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeTruthy();
    expect(screen.queryByTestId('captcha')).toBeNull();
    const boxes = () => within(screen.getByTestId('second-factor-code')).getAllByRole('textbox');
    fireEvent.change(boxes()[0]!, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Verification code incorrect or expired')).toBeTruthy();
    expect(await screen.findByTestId('captcha')).toBeTruthy();
    fireEvent.change(boxes()[0]!, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(completeSignIn).toHaveBeenCalledWith('/'));
    expect(server.callsTo('POST /sso/auth/mfa').at(-1)).toEqual({ mfa_token: 'mfa-3', code: '123456', captcha: 'captcha-answer' });
  });

  it('with two-step verification on: "Complete the captcha" goes once the captcha says Verified', async () => {
    server.on('POST /sso/auth', { status: 200, body: { mfa_required: true, mfa_token: 'mfa-4', method: 'totp' } });
    server.on('POST /sso/auth/mfa', { status: 400, body: { code: 'auth.captcha_required', message: 'Complete the captcha', details: { captcha_required: true } } });
    await toPasswordStep();
    submitPassword('Correct-Horse');
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeTruthy();
    fireEvent.change(within(screen.getByTestId('second-factor-code')).getAllByRole('textbox')[0]!, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Complete the captcha')).toBeTruthy();
    await screen.findByTestId('captcha');
    act(() => captchaStub.solve());
    await waitFor(() => expect(screen.queryByText('Complete the captcha')).toBeNull());
  });

  it('with two-step verification on: a recovery code instead', async () => {
    server.on('POST /sso/auth', { status: 200, body: { mfa_required: true, mfa_token: 'mfa-2', method: 'email' } });
    server.on('POST /sso/auth/mfa', { status: 200, body: { token: 't' } });
    await toPasswordStep();
    submitPassword('Correct-Horse');
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Recovery code not valid')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcde-12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(completeSignIn).toHaveBeenCalledWith('/'));
    expect(server.callsTo('POST /sso/auth/mfa')).toEqual([{ mfa_token: 'mfa-2', recovery_code: 'ABCDE-12345' }]);
  });
});
