import type { Language } from '@portal/contracts';
import { DEFAULT_CODE_MINUTES, defineMail } from '../../platform/mail';

/**
 * The account module's mails, in every language we write: a code to confirm a new address,
 * and notices that go out as alerts (platform/mail renderAlert) (a title, a few lines and a
 * button). Codes ride in a line of their own so they stand out in the plain-text part.
 */
interface AlertText {
  title: string;
  lines: string[];
  label?: string;
}

const en = {
  emailChangeRequested: (brand: string, newEmail: string): AlertText => ({
    title: 'A change of your email address was requested',
    lines: [
      `Someone signed in to your ${brand} account asked to change its email address to ${newEmail}. A confirmation code was sent to that address.`,
      'Your email address stays the same until the code is entered.',
      "If this wasn't you, change your password right away.",
    ],
    label: 'Review email settings',
  }),
  emailTaken: (brand: string): AlertText => ({
    title: 'Someone tried to use your email address',
    lines: [
      `Someone tried to make this address the email of another ${brand} account. It is already the address of your account, so nothing was changed.`,
      "If this was you, sign in with this address instead. Otherwise you can ignore this email.",
    ],
  }),
  recoveryCode: (brand: string, email: string, code: string, minutes: number): AlertText => ({
    title: 'Confirm your recovery email',
    lines: [
      `Use this code to confirm ${email} as the recovery email of your ${brand} account:`,
      code,
      `The code is valid for ${minutes} minutes. Never share this code with anyone.`,
      "If you didn't ask for this, ignore this email.",
    ],
  }),
  educationLink: (brand: string, email: string, hours: number): AlertText => ({
    title: 'Confirm your education email',
    lines: [
      `Confirm ${email} as the education email of your ${brand} account by opening the link below.`,
      `The link is valid for ${hours} hours and can be used once. If you didn't ask for this, ignore this email.`,
    ],
    label: 'Confirm education email',
  }),
};

const vi: typeof en = {
  emailChangeRequested: (brand, newEmail) => ({
    title: 'Có yêu cầu đổi địa chỉ email của bạn',
    lines: [
      `Một người đã đăng nhập vào tài khoản ${brand} của bạn yêu cầu đổi địa chỉ email thành ${newEmail}. Mã xác nhận đã được gửi tới địa chỉ đó.`,
      'Địa chỉ email của bạn giữ nguyên cho tới khi mã được nhập.',
      'Nếu không phải bạn, hãy đổi mật khẩu ngay.',
    ],
    label: 'Xem cài đặt email',
  }),
  emailTaken: (brand) => ({
    title: 'Có người đã thử dùng địa chỉ email của bạn',
    lines: [
      `Có người đã thử đặt địa chỉ này làm email của một tài khoản ${brand} khác. Đây đã là địa chỉ của tài khoản của bạn nên không có gì thay đổi.`,
      'Nếu đó là bạn, hãy đăng nhập bằng địa chỉ này. Nếu không, bạn có thể bỏ qua email này.',
    ],
  }),
  recoveryCode: (brand, email, code, minutes) => ({
    title: 'Xác nhận email khôi phục',
    lines: [
      `Dùng mã này để xác nhận ${email} là email khôi phục của tài khoản ${brand}:`,
      code,
      `Mã có hiệu lực trong ${minutes} phút. Không chia sẻ mã này với bất kỳ ai.`,
      'Nếu bạn không yêu cầu, hãy bỏ qua email này.',
    ],
  }),
  educationLink: (brand, email, hours) => ({
    title: 'Xác nhận email giáo dục',
    lines: [
      `Xác nhận ${email} là email giáo dục của tài khoản ${brand} bằng cách mở liên kết bên dưới.`,
      `Liên kết có hiệu lực trong ${hours} giờ và chỉ dùng được một lần. Nếu bạn không yêu cầu, hãy bỏ qua email này.`,
    ],
    label: 'Xác nhận email giáo dục',
  }),
};

export function accountMailCopy(lang: Language) {
  return lang === 'vi' ? vi : en;
}

/** A code sent to a new address to confirm it. */
export const emailChangeCodeMail = defineMail<{ code: string; newEmail: string; validMinutes?: number }>({
  en: ({ name, code, newEmail, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting, mailedCode }) => ({
    subject: `Confirm your new ${brand} email address`,
    heading: 'Confirm your new email address',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Use this code to confirm ${newEmail} as the email address of your ${brand} account:` },
      ...mailedCode(code, validMinutes, brand),
      { kind: 'note', text: "If you didn't ask for this change, ignore this email. Your email address stays the same." },
    ],
  }),

  vi: ({ name, code, newEmail, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting, mailedCode }) => ({
    subject: `Xác nhận địa chỉ email mới cho ${brand}`,
    heading: 'Xác nhận địa chỉ email mới',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Dùng mã sau để xác nhận ${newEmail} là địa chỉ email của tài khoản ${brand}:` },
      ...mailedCode(code, validMinutes, brand),
      { kind: 'note', text: 'Nếu bạn không yêu cầu thay đổi này, hãy bỏ qua email này. Địa chỉ email của bạn vẫn giữ nguyên.' },
    ],
  }),
});
