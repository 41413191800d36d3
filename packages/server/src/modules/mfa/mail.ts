/** The mail of the mfa module, in every language we write. */
import { DEFAULT_CODE_MINUTES, defineMail } from '../../platform/mail';

/** A 6-digit sign-in code. */
export const loginCodeMail = defineMail<{ code: string; validMinutes?: number }>({
  en: ({ name, code, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting, mailedCode }) => ({
    subject: `Your ${brand} sign-in code`,
    heading: 'Your sign-in code',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Use this code to sign in to ${brand}:` },
      ...mailedCode(code, validMinutes, brand),
      { kind: 'note', text: "If you didn't try to sign in, you can ignore this email." },
    ],
  }),

  vi: ({ name, code, validMinutes = DEFAULT_CODE_MINUTES }, brand, { greeting, mailedCode }) => ({
    subject: `Mã đăng nhập ${brand} của bạn`,
    heading: 'Mã đăng nhập của bạn',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Dùng mã sau để đăng nhập vào ${brand}:` },
      ...mailedCode(code, validMinutes, brand),
      { kind: 'note', text: 'Nếu bạn không thử đăng nhập, bạn có thể bỏ qua email này.' },
    ],
  }),
});
