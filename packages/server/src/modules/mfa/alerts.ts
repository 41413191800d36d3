import { brands, paths, type BrandId, type Language } from '@portal/contracts';

/** Security events the owner is told about by mail (kind 'security_alert'). */
export type SecurityEvent = 'two_factor_disabled' | 'two_factor_enabled' | 'passkey_added' | 'passkey_removed';

interface AlertCopy {
  title: string;
  lines: string[];
  label: string;
}

const copy: Record<Language, Record<SecurityEvent, (brand: string, detail: string) => AlertCopy>> = {
  en: {
    two_factor_disabled: (brand) => ({
      title: 'Two-step verification was turned off',
      lines: [
        `Two-step verification was just turned off for your ${brand} account. Signing in now needs only your password, email code or passkey.`,
        "If you didn't do this, change your password right away and turn two-step verification back on.",
      ],
      label: 'Review security settings',
    }),
    two_factor_enabled: (brand, detail) => ({
      title: 'Two-step verification was turned on',
      lines: [`Two-step verification (${detail}) was just turned on for your ${brand} account.`, "If you didn't do this, contact our support team right away."],
      label: 'Review security settings',
    }),
    passkey_added: (brand, detail) => ({
      title: 'A passkey was added to your account',
      lines: [`A passkey named "${detail}" can now sign in to your ${brand} account.`, "If you didn't add it, remove it and change your password right away."],
      label: 'Review passkeys',
    }),
    passkey_removed: (brand, detail) => ({
      title: 'A passkey was removed from your account',
      lines: [`The passkey named "${detail}" can no longer sign in to your ${brand} account.`, "If you didn't remove it, change your password right away."],
      label: 'Review passkeys',
    }),
  },
  vi: {
    two_factor_disabled: (brand) => ({
      title: 'Xác minh hai bước đã bị tắt',
      lines: [
        `Xác minh hai bước vừa được tắt cho tài khoản ${brand} của bạn. Giờ đây chỉ cần mật khẩu, mã qua email hoặc passkey để đăng nhập.`,
        'Nếu không phải bạn thực hiện, hãy đổi mật khẩu ngay và bật lại xác minh hai bước.',
      ],
      label: 'Xem cài đặt bảo mật',
    }),
    two_factor_enabled: (brand, detail) => ({
      title: 'Xác minh hai bước đã được bật',
      lines: [`Xác minh hai bước (${detail}) vừa được bật cho tài khoản ${brand} của bạn.`, 'Nếu không phải bạn thực hiện, hãy liên hệ đội hỗ trợ ngay.'],
      label: 'Xem cài đặt bảo mật',
    }),
    passkey_added: (brand, detail) => ({
      title: 'Một passkey đã được thêm vào tài khoản',
      lines: [`Passkey "${detail}" giờ có thể đăng nhập vào tài khoản ${brand} của bạn.`, 'Nếu không phải bạn thêm, hãy xoá passkey đó và đổi mật khẩu ngay.'],
      label: 'Xem passkey',
    }),
    passkey_removed: (brand, detail) => ({
      title: 'Một passkey đã bị xoá khỏi tài khoản',
      lines: [`Passkey "${detail}" không còn đăng nhập được vào tài khoản ${brand} của bạn.`, 'Nếu không phải bạn xoá, hãy đổi mật khẩu ngay.'],
      label: 'Xem passkey',
    }),
  },
};

/** The variables of a 'security_alert' mail for an event; `origin` is the brand's public origin. */
export function securityAlert(event: SecurityEvent, lang: Language, brand: BrandId, origin: string, detail = '') {
  const text = copy[lang][event](brands[brand].title, detail);
  const page = event.startsWith('passkey') ? paths.securityWebauthn : paths.securityTwoStep;
  return { title: text.title, lines: text.lines, link: { label: text.label, url: `${origin}${page}` } };
}
