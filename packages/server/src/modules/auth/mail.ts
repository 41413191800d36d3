/** The mails of sign-up and recovery, in every language we write. */
import { DEFAULT_CODE_MINUTES, defineMail, type CommonWords, type MailTarget } from '../../platform/mail';

/** Confirm the address of a new account. */
export const activationMail = defineMail<{ link: string }>({
  en: ({ name, link }, brand, { greeting }) => ({
    subject: `Activate your ${brand} account`,
    heading: 'Confirm your email address',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Thanks for signing up for ${brand}. Confirm your email address to activate your account:` },
      { kind: 'button', label: 'Activate account', url: link },
      { kind: 'note', text: "If you didn't create this account, you can ignore this email." },
    ],
  }),

  vi: ({ name, link }, brand, { greeting }) => ({
    subject: `Kích hoạt tài khoản ${brand} của bạn`,
    heading: 'Xác nhận địa chỉ email',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Cảm ơn bạn đã đăng ký ${brand}. Hãy xác nhận địa chỉ email để kích hoạt tài khoản:` },
      { kind: 'button', label: 'Kích hoạt tài khoản', url: link },
      { kind: 'note', text: 'Nếu bạn không tạo tài khoản này, bạn có thể bỏ qua email này.' },
    ],
  }),
});

/** Someone tried to register with an address that already has an account. */
export const signupExistingMail = defineMail<{ /** Sign-in page. */ link: string; resetLink: string }>({
  en: ({ name, link, resetLink }, brand, { greeting }) => ({
    subject: `Someone tried to sign up to ${brand} with your email`,
    heading: 'You already have an account',
    blocks: [
      greeting(name),
      {
        kind: 'p',
        text: `Someone (hopefully you) tried to create a ${brand} account with this email address, but this address already has an account.`,
      },
      { kind: 'button', label: 'Sign in', url: link },
      { kind: 'p', text: 'Forgot your password? You can reset it here:' },
      { kind: 'link', label: 'Reset password', url: resetLink },
      { kind: 'note', text: "If this wasn't you, you can ignore this email. Nothing has changed in your account." },
    ],
  }),

  vi: ({ name, link, resetLink }, brand, { greeting }) => ({
    subject: `Có người đã thử đăng ký ${brand} bằng email của bạn`,
    heading: 'Bạn đã có tài khoản',
    blocks: [
      greeting(name),
      {
        kind: 'p',
        text: `Có người (có thể là bạn) vừa thử tạo tài khoản ${brand} bằng địa chỉ email này, nhưng địa chỉ này đã có tài khoản.`,
      },
      { kind: 'button', label: 'Đăng nhập', url: link },
      { kind: 'p', text: 'Quên mật khẩu? Bạn có thể đặt lại mật khẩu tại đây:' },
      { kind: 'link', label: 'Đặt lại mật khẩu', url: resetLink },
      { kind: 'note', text: 'Nếu đó không phải là bạn, hãy bỏ qua email này. Tài khoản của bạn không có gì thay đổi.' },
    ],
  }),
});

/** A 6-digit code and a link; both valid `validMinutes` (default 10) and usable once. */
export const resetPasswordMail = defineMail<{ code: string; link: string; validMinutes?: number }>({
  en: ({ name, code, link, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting }) => ({
    subject: `Reset your ${brand} password`,
    heading: 'Reset your password',
    blocks: [
      greeting(name),
      { kind: 'p', text: `We received a request to reset the password of your ${brand} account. Enter this code:` },
      { kind: 'code', code },
      { kind: 'p', text: 'Or open this link:' },
      { kind: 'button', label: 'Reset password', url: link },
      { kind: 'p', text: `The code and the link are valid for ${validMinutes} minutes and can be used once.` },
      { kind: 'note', text: "If you didn't ask to reset your password, ignore this email. Your password stays the same." },
    ],
  }),

  vi: ({ name, code, link, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting }) => ({
    subject: `Đặt lại mật khẩu ${brand}`,
    heading: 'Đặt lại mật khẩu',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Chúng tôi đã nhận được yêu cầu đặt lại mật khẩu cho tài khoản ${brand} của bạn. Hãy nhập mã sau:` },
      { kind: 'code', code },
      { kind: 'p', text: 'Hoặc mở liên kết này:' },
      { kind: 'button', label: 'Đặt lại mật khẩu', url: link },
      { kind: 'p', text: `Mã và liên kết có hiệu lực trong ${validMinutes} phút và chỉ dùng được một lần.` },
      { kind: 'note', text: 'Nếu bạn không yêu cầu đặt lại mật khẩu, hãy bỏ qua email này. Mật khẩu của bạn vẫn giữ nguyên.' },
    ],
  }),
});

type PasswordChangedVars = { resetLink?: string; supportUrl?: string; /** The account's passkeys and API keys with where to review them (notifications accountInventory). */ inventory?: string[] };

/** The words of the password-changed notice in one language; the blocks are the same in each. */
function passwordChangedWording(words: { subject(brand: string): string; heading: string; changed(brand: string): string; notYou: string; reset: string; support: string }) {
  return ({ name, resetLink, supportUrl, inventory }: PasswordChangedVars & MailTarget, brand: string, { greeting }: CommonWords) => ({
    subject: words.subject(brand),
    heading: words.heading,
    blocks: [
      greeting(name),
      { kind: 'p' as const, text: words.changed(brand) },
      { kind: 'p' as const, text: words.notYou },
      ...(inventory ?? []).map((text) => ({ kind: 'p' as const, text })),
      ...(resetLink ? [{ kind: 'link' as const, label: words.reset, url: resetLink }] : []),
      ...(supportUrl ? [{ kind: 'link' as const, label: words.support, url: supportUrl }] : []),
    ],
  });
}

/** Notice after a password change; other sessions were signed out. */
export const passwordChangedMail = defineMail<PasswordChangedVars>({
  en: passwordChangedWording({
    subject: (brand) => `Your ${brand} password was changed`,
    heading: 'Your password was changed',
    changed: (brand) => `The password of your ${brand} account was just changed. For your safety, all other sessions have been signed out.`,
    notYou: "If you didn't make this change, reset your password right away and contact our support team.",
    reset: 'Reset password',
    support: 'Contact support',
  }),
  vi: passwordChangedWording({
    subject: (brand) => `Mật khẩu ${brand} của bạn đã được thay đổi`,
    heading: 'Mật khẩu của bạn đã được thay đổi',
    changed: (brand) => `Mật khẩu tài khoản ${brand} của bạn vừa được thay đổi. Để bảo đảm an toàn, tất cả các phiên đăng nhập khác đã được đăng xuất.`,
    notYou: 'Nếu bạn không thực hiện thay đổi này, hãy đặt lại mật khẩu ngay và liên hệ với bộ phận hỗ trợ của chúng tôi.',
    reset: 'Đặt lại mật khẩu',
    support: 'Liên hệ hỗ trợ',
  }),
});
