/** The mail of the federation module, in every language we write. */
import { DEFAULT_CODE_MINUTES, defineMail } from '../../platform/mail';

/** The code that proves the email given when signing up with a social account (/create-user). */
export const socialSignupCodeMail = defineMail<{ code: string; provider: string; validMinutes?: number }>({
  en: ({ name, code, provider, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting, mailedCode }) => ({
    subject: `Confirm your email for ${brand}`,
    heading: 'Confirm your email',
    blocks: [
      greeting(name),
      { kind: 'p', text: `You are creating a ${brand} account with ${provider}. Enter this code to confirm this email address:` },
      ...mailedCode(code, validMinutes, brand),
      { kind: 'note', text: "If you didn't sign up, you can ignore this email: no account is created without this code." },
    ],
  }),

  vi: ({ name, code, provider, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting, mailedCode }) => ({
    subject: `Xác nhận email của bạn cho ${brand}`,
    heading: 'Xác nhận email của bạn',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Bạn đang tạo tài khoản ${brand} bằng ${provider}. Nhập mã sau để xác nhận địa chỉ email này:` },
      ...mailedCode(code, validMinutes, brand),
      { kind: 'note', text: 'Nếu bạn không đăng ký, bạn có thể bỏ qua email này: không có tài khoản nào được tạo khi chưa có mã này.' },
    ],
  }),
});
