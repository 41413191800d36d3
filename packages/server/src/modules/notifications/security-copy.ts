import { paths, type Language } from '@portal/contracts';

/** Security events: each becomes an in-app notification and (unless the caller mails its own) a mail. */
export const securityEventKinds = [
  'new_device_sign_in',
  'password_changed',
  'two_factor_enabled',
  'two_factor_disabled',
  'passkey_added',
  'passkey_removed',
  'social_linked',
  'social_unlinked',
  'api_key_created',
  'email_changed',
  'recovery_email_changed',
  'deletion_requested',
  'deletion_cancelled',
] as const;
export type SecurityEventKind = (typeof securityEventKinds)[number];

export interface SecurityCopy {
  title: string;
  lines: string[];
  /** The button of the mail. */
  label: string;
}

/** The page of this app where the owner reviews what happened. */
export const securityEventPage: Record<SecurityEventKind, string> = {
  new_device_sign_in: paths.securityDeviceActivity,
  password_changed: paths.securityPassword,
  two_factor_enabled: paths.securityTwoStep,
  two_factor_disabled: paths.securityTwoStep,
  passkey_added: paths.securityWebauthn,
  passkey_removed: paths.securityWebauthn,
  social_linked: paths.security,
  social_unlinked: paths.security,
  api_key_created: paths.apiKeys,
  email_changed: paths.email,
  recovery_email_changed: paths.email,
  deletion_requested: paths.login,
  deletion_cancelled: paths.account,
};

type Builder = (brand: string, detail: string) => SecurityCopy;

const en: Record<SecurityEventKind, Builder> = {
  new_device_sign_in: (brand, detail) => ({
    title: 'New sign-in to your account',
    lines: [`Your ${brand} account was just signed in to from a new device${detail ? `: ${detail}` : ''}.`, "If this wasn't you, sign out that session and change your password right away."],
    label: 'Review device activity',
  }),
  password_changed: (brand) => ({
    title: 'Your password was changed',
    lines: [`The password of your ${brand} account was just changed.`, "If you didn't make this change, reset your password right away."],
    label: 'Review security settings',
  }),
  two_factor_enabled: (brand, detail) => ({
    title: 'Two-step verification was turned on',
    lines: [`Two-step verification${detail ? ` (${detail})` : ''} was just turned on for your ${brand} account.`],
    label: 'Review security settings',
  }),
  two_factor_disabled: (brand) => ({
    title: 'Two-step verification was turned off',
    lines: [`Two-step verification was just turned off for your ${brand} account.`, "If you didn't do this, change your password right away and turn it back on."],
    label: 'Review security settings',
  }),
  passkey_added: (brand, detail) => ({
    title: 'A passkey was added to your account',
    lines: [`A passkey${detail ? ` named "${detail}"` : ''} can now sign in to your ${brand} account.`],
    label: 'Review passkeys',
  }),
  passkey_removed: (brand, detail) => ({
    title: 'A passkey was removed from your account',
    lines: [`A passkey${detail ? ` named "${detail}"` : ''} can no longer sign in to your ${brand} account.`],
    label: 'Review passkeys',
  }),
  social_linked: (brand, detail) => ({
    title: `A ${detail || 'social'} account was linked to your account`,
    lines: [`Your ${detail || 'social'} account can now sign in to your ${brand} account.`, "If you didn't link it, unlink it and change your password right away."],
    label: 'Review sign-in methods',
  }),
  social_unlinked: (brand, detail) => ({
    title: `A ${detail || 'social'} account was unlinked`,
    lines: [`Your ${detail || 'social'} account can no longer sign in to your ${brand} account.`],
    label: 'Review sign-in methods',
  }),
  api_key_created: (brand, detail) => ({
    title: 'A new API key was created',
    lines: [`An API key${detail ? ` named "${detail}"` : ''} was just created for your ${brand} account.`, "If you didn't create it, revoke it and change your password right away."],
    label: 'Review API keys',
  }),
  email_changed: (brand, detail) => ({
    title: 'Your email address was changed',
    lines: [`The email address of your ${brand} account is now ${detail || 'a new address'}.`, "If you didn't make this change, contact our support team right away."],
    label: 'Review email settings',
  }),
  recovery_email_changed: (brand, detail) => ({
    title: 'Your recovery email was changed',
    lines: [detail ? `The recovery email of your ${brand} account is now ${detail}.` : `The recovery email of your ${brand} account was removed.`],
    label: 'Review email settings',
  }),
  deletion_requested: (brand, detail) => ({
    title: 'Your account is scheduled for deletion',
    lines: [
      `Your ${brand} account will be deleted on ${detail}. You have been signed out everywhere.`,
      'Changed your mind? Sign in before that date to cancel the deletion.',
    ],
    label: 'Sign in',
  }),
  deletion_cancelled: (brand) => ({
    title: 'Your account deletion was cancelled',
    lines: [`Your ${brand} account will not be deleted.`],
    label: 'Open your account',
  }),
};

const vi: Record<SecurityEventKind, Builder> = {
  new_device_sign_in: (brand, detail) => ({
    title: 'Đăng nhập mới vào tài khoản của bạn',
    lines: [`Tài khoản ${brand} của bạn vừa được đăng nhập từ một thiết bị mới${detail ? `: ${detail}` : ''}.`, 'Nếu không phải bạn, hãy đăng xuất phiên đó và đổi mật khẩu ngay.'],
    label: 'Xem hoạt động thiết bị',
  }),
  password_changed: (brand) => ({
    title: 'Mật khẩu của bạn đã được thay đổi',
    lines: [`Mật khẩu tài khoản ${brand} của bạn vừa được thay đổi.`, 'Nếu không phải bạn thực hiện, hãy đặt lại mật khẩu ngay.'],
    label: 'Xem cài đặt bảo mật',
  }),
  two_factor_enabled: (brand, detail) => ({
    title: 'Xác thực hai bước đã được bật',
    lines: [`Xác thực hai bước${detail ? ` (${detail})` : ''} vừa được bật cho tài khoản ${brand} của bạn.`],
    label: 'Xem cài đặt bảo mật',
  }),
  two_factor_disabled: (brand) => ({
    title: 'Xác thực hai bước đã bị tắt',
    lines: [`Xác thực hai bước vừa được tắt cho tài khoản ${brand} của bạn.`, 'Nếu không phải bạn thực hiện, hãy đổi mật khẩu và bật lại ngay.'],
    label: 'Xem cài đặt bảo mật',
  }),
  passkey_added: (brand, detail) => ({
    title: 'Một khóa truy cập đã được thêm vào tài khoản',
    lines: [`Khóa truy cập${detail ? ` "${detail}"` : ''} giờ có thể đăng nhập vào tài khoản ${brand} của bạn.`],
    label: 'Xem passkey',
  }),
  passkey_removed: (brand, detail) => ({
    title: 'Một khóa truy cập đã bị xoá khỏi tài khoản',
    lines: [`Khóa truy cập${detail ? ` "${detail}"` : ''} không còn đăng nhập được vào tài khoản ${brand} của bạn.`],
    label: 'Xem passkey',
  }),
  social_linked: (brand, detail) => ({
    title: `Tài khoản ${detail || 'mạng xã hội'} đã được liên kết với tài khoản của bạn`,
    lines: [`Tài khoản ${detail || 'mạng xã hội'} giờ có thể đăng nhập vào tài khoản ${brand} của bạn.`, 'Nếu bạn không liên kết, hãy hủy liên kết và đổi mật khẩu ngay.'],
    label: 'Xem cách đăng nhập',
  }),
  social_unlinked: (brand, detail) => ({
    title: `Tài khoản ${detail || 'mạng xã hội'} đã được hủy liên kết`,
    lines: [`Tài khoản ${detail || 'mạng xã hội'} không còn đăng nhập được vào tài khoản ${brand} của bạn.`],
    label: 'Xem cách đăng nhập',
  }),
  api_key_created: (brand, detail) => ({
    title: 'Một khoá API mới đã được tạo',
    lines: [`Khoá API${detail ? ` "${detail}"` : ''} vừa được tạo cho tài khoản ${brand} của bạn.`, 'Nếu không phải bạn tạo, hãy thu hồi khoá và đổi mật khẩu ngay.'],
    label: 'Xem khoá API',
  }),
  email_changed: (brand, detail) => ({
    title: 'Địa chỉ email của bạn đã được thay đổi',
    lines: [`Địa chỉ email của tài khoản ${brand} giờ là ${detail || 'một địa chỉ mới'}.`, 'Nếu không phải bạn thực hiện, hãy liên hệ đội hỗ trợ ngay.'],
    label: 'Xem cài đặt email',
  }),
  recovery_email_changed: (brand, detail) => ({
    title: 'Email khôi phục đã được thay đổi',
    lines: [detail ? `Email khôi phục của tài khoản ${brand} giờ là ${detail}.` : `Email khôi phục của tài khoản ${brand} đã bị xoá.`],
    label: 'Xem cài đặt email',
  }),
  deletion_requested: (brand, detail) => ({
    title: 'Tài khoản của bạn sẽ bị xoá',
    lines: [`Tài khoản ${brand} của bạn sẽ bị xoá vào ngày ${detail}. Bạn đã được đăng xuất khỏi mọi thiết bị.`, 'Đổi ý? Hãy đăng nhập trước ngày đó để huỷ việc xoá.'],
    label: 'Đăng nhập',
  }),
  deletion_cancelled: (brand) => ({
    title: 'Đã huỷ xoá tài khoản',
    lines: [`Tài khoản ${brand} của bạn sẽ không bị xoá.`],
    label: 'Mở tài khoản',
  }),
};

export function securityCopy(kind: SecurityEventKind, lang: Language, brand: string, detail = ''): SecurityCopy {
  return (lang === 'vi' ? vi : en)[kind](brand, detail);
}

/**
 * What every security mail ends with: the account's passkeys and API keys, each list with the
 * page to review it, so a way in someone else added is seen at once.
 */
export function inventoryLines(lang: Language, inventory: { passkeys: string[]; apiKeys: string[] }, origin: string): string[] {
  const list = (names: string[]) => (names.length ? names.join(', ') : lang === 'vi' ? 'không có' : 'none');
  return lang === 'vi'
    ? [
        `Khóa truy cập của tài khoản: ${list(inventory.passkeys)}. Xem lại tại ${origin}${paths.securityWebauthn}`,
        `Khóa API của tài khoản: ${list(inventory.apiKeys)}. Xem lại tại ${origin}${paths.apiKeys}`,
      ]
    : [
        `Passkeys on your account: ${list(inventory.passkeys)}. Review them at ${origin}${paths.securityWebauthn}`,
        `API keys on your account: ${list(inventory.apiKeys)}. Review them at ${origin}${paths.apiKeys}`,
      ];
}
