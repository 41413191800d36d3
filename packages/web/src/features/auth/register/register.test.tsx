import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { applyLanguage } from '../../../lib/language';
import { captchaStub } from '../../../test/captcha-stub';
import { fakeApi, type FakeApi } from '../../../test/fake-api';
import { locationOf, renderAt } from '../../../test/render';

vi.mock('../../../components/captcha/CaptchaField', () => import('../../../test/captcha-stub'));
// The strength meter's dictionaries are not what these tests are about.
vi.mock('../../../components/PasswordStrength', () => ({ PasswordStrength: () => null }));

let server: FakeApi;

beforeEach(() => {
  initI18n('en');
  server = fakeApi();
  sessionStorage.clear();
  captchaStub.resets = 0;
});

afterEach(async () => {
  await act(() => applyLanguage('en'));
});

const messages = {
  en: {
    fullName: 'Full name',
    email: 'Email',
    password: 'Password',
    submit: 'Create account',
    blank: 'This field may not be blank.',
    emailRequired: 'The email field is required',
    emailInvalid: 'Email address is not valid',
    passwordRequired: 'Enter a password',
    passwordShort: 'Enter a password of at least 8 characters',
    terms: 'Accept the Terms of Service and Privacy Policy',
  },
  vi: {
    fullName: 'Họ và tên',
    email: 'Email',
    password: 'Mật khẩu',
    submit: 'Tạo tài khoản',
    blank: 'Trường này không được để trống.',
    emailRequired: 'Nhập email',
    emailInvalid: 'Địa chỉ email không hợp lệ',
    passwordRequired: 'Nhập mật khẩu của bạn',
    passwordShort: 'Nhập mật khẩu có ít nhất 8 ký tự',
    terms: 'Đồng ý với Điều khoản dịch vụ và Chính sách quyền riêng tư',
  },
};

function fill(text: (typeof messages)['en'], values: { fullName?: string; email?: string; password?: string; terms?: boolean }) {
  if (values.fullName !== undefined) fireEvent.change(screen.getByLabelText(text.fullName), { target: { value: values.fullName } });
  if (values.email !== undefined) fireEvent.change(screen.getByLabelText(text.email), { target: { value: values.email } });
  if (values.password !== undefined) fireEvent.change(screen.getByLabelText(text.password), { target: { value: values.password } });
  if (values.terms) fireEvent.click(screen.getByRole('checkbox'));
}

describe('/register', () => {
  it.each(['en', 'vi'] as const)('checks every field before sending (%s)', async (language) => {
    await act(() => applyLanguage(language));
    const text = messages[language];
    renderAt('/register');
    fireEvent.click(await screen.findByRole('button', { name: text.submit }));
    for (const message of [text.blank, text.emailRequired, text.passwordRequired, text.terms]) expect(await screen.findByText(message)).toBeTruthy();
    fill(text, { email: 'ada@', password: 'short' });
    expect(await screen.findByText(text.emailInvalid)).toBeTruthy();
    expect(await screen.findByText(text.passwordShort)).toBeTruthy();
    expect(server.calls).toEqual([]);
  });

  it('sends the sign-up with the captcha, the language and the scope, then says where the mail went', async () => {
    server.on('POST /sso/users', { status: 201, body: { email: 'ada@example.com' } });
    const { router } = renderAt('/register?SERVICE_SCOPE=secret');
    await screen.findByRole('button', { name: 'Create account' });
    fill(messages.en, { fullName: ' Ada Lovelace ', email: 'ada@example.com ', password: 'Correct-Horse-42', terms: true });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('We sent an activation link to ada@example.com. Open it to activate your account.')).toBeTruthy();
    expect(locationOf(router)).toBe('/register/verifying-email?SERVICE_SCOPE=secret');
    expect(server.callsTo('POST /sso/users')).toEqual([
      {
        full_name: 'Ada Lovelace',
        email: 'ada@example.com',
        password: 'Correct-Horse-42',
        accept_terms: true,
        captcha: 'captcha-answer',
        language: 'en',
        service_scope: 'secret',
      },
    ]);
    // The resend waits: a mail was just sent.
    expect(screen.getByRole('button', { name: /Resend in \d+ s/ }).hasAttribute('disabled')).toBe(true);
  });

  it("shows the server's field messages under their fields, in the language shown, and starts a new captcha", async () => {
    server.on('POST /sso/users', {
      status: 400,
      body: { code: 'auth.password_too_common', message: 'Choose a less common password', details: { fields: { password: { code: 'auth.password_too_common', message: 'Choose a less common password' } } } },
    });
    renderAt('/register');
    await screen.findByRole('button', { name: 'Create account' });
    fill(messages.en, { fullName: 'Ada', email: 'ada@example.com', password: 'password123', terms: true });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Choose a less common password')).toBeTruthy();
    expect(captchaStub.resets).toBe(1);
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'vi' } });
    expect(await screen.findByText('Chọn mật khẩu ít phổ biến hơn')).toBeTruthy();
    expect(server.toasts).toEqual([]);
  });

  it('a captcha refusal shows at the captcha', async () => {
    server.on('POST /sso/users', { status: 400, body: { code: 'auth.captcha_invalid', message: 'Captcha verification failed', details: { captcha_required: true } } });
    renderAt('/register');
    await screen.findByRole('button', { name: 'Create account' });
    fill(messages.en, { fullName: 'Ada', email: 'ada@example.com', password: 'Correct-Horse-42', terms: true });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Captcha verification failed')).toBeTruthy();
  });
});

describe('sign-up copy by product', () => {
  it('trial wording and prices for the password manager', async () => {
    renderAt('/register?SERVICE_SCOPE=pwdmanager');
    expect(await screen.findByText('Premium, Family and Business plans come with a 14-day free trial.')).toBeTruthy();
    expect(screen.getByText('Premium from $1.29/mo · Family from $5.99/mo')).toBeTruthy();
  });

  it('the free project for the secrets manager', async () => {
    renderAt('/register?SERVICE_SCOPE=secret');
    expect(await screen.findByText('Your account includes 1 free project.')).toBeTruthy();
  });

  it.each([
    ['premium', 'Start your 14-day free trial of Premium', 'Premium from $1.29/mo'],
    ['family', 'Start your 14-day free trial of Family', 'Family from $5.99/mo'],
    ['business', 'Start your 14-day free trial of Business', null],
  ])('/register/%s: the plan trial', async (plan, title, price) => {
    renderAt(`/register/${plan}`);
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    if (price) expect(screen.getByTestId('plan-price').textContent).toBe(price);
    else expect(screen.queryByTestId('plan-price')).toBeNull();
  });

  it('/register/<anything else>: plain sign-up', async () => {
    renderAt('/register/invite-42');
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
  });
});

describe('/confirmation/:token', () => {
  it('activates once and offers sign-in with the email filled in', async () => {
    server.on('POST /sso/users/activate', { status: 200, body: { email: 'ada@example.com', needs_password: false } });
    renderAt('/confirmation/tok-1');
    expect(await screen.findByRole('heading', { name: 'Your account is activated' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(((await screen.findByLabelText('Email or username')) as HTMLInputElement).value).toBe('ada@example.com');
    expect(server.callsTo('POST /sso/users/activate')).toEqual([{ token: 'tok-1' }]);
  });

  it('an account activated without a password leads to choosing one, with the email filled in', async () => {
    server.on('POST /sso/users/activate', { status: 200, body: { email: 'ada@example.com', needs_password: true } });
    renderAt('/confirmation/tok-3');
    expect(await screen.findByText('ada@example.com is ready, but has no password yet. Choose one to sign in.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Choose a password' }));
    expect(((await screen.findByLabelText('Email or username')) as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('an expired or used link: says so and sends a new one', async () => {
    server.on('POST /sso/users/activate', {
      status: 400,
      body: { code: 'auth.activation_link_invalid', message: 'This activation link has expired or has already been used' },
    });
    server.on('POST /sso/users/activation/resend', { status: 200, body: { email: 'ada@example.com' } });
    renderAt('/confirmation/tok-2');
    expect(await screen.findByText('This activation link has expired or has already been used')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resend activation email' }));
    expect(await screen.findByText('The email field is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Resend activation email' }));
    expect(await screen.findByText('If ada@example.com has an account waiting for activation, a new link is on its way.')).toBeTruthy();
    expect(server.toasts).toEqual([]);
  });

  it('no token: the same error view, no request', async () => {
    renderAt('/confirmation');
    expect(await screen.findByRole('heading', { name: 'Activation link expired or used' })).toBeTruthy();
    await waitFor(() => expect(server.calls).toEqual([]));
  });
});
