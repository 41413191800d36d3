import { DEFAULT_CODE_MINUTES, type Copy } from './kinds';

const greeting = (name?: string) => ({ kind: 'p' as const, text: name ? `Xin chào ${name},` : 'Xin chào,' });
const signOff = (brand: string) => `— Đội ngũ ${brand}`;
const footer = (brand: string) => `Đây là email tự động từ ${brand}. Vui lòng không trả lời email này.`;
const neverShare = (brand: string) =>
  `Tuyệt đối không chia sẻ mã này với bất kỳ ai. Nhân viên ${brand} sẽ không bao giờ hỏi bạn mã này.`;

export const vi: Copy = {
  activation: ({ name, link }, brand) => ({
    subject: `Kích hoạt tài khoản ${brand} của bạn`,
    heading: 'Xác nhận địa chỉ email',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Cảm ơn bạn đã đăng ký ${brand}. Hãy xác nhận địa chỉ email để kích hoạt tài khoản:` },
      { kind: 'button', label: 'Kích hoạt tài khoản', url: link },
      { kind: 'note', text: 'Nếu bạn không tạo tài khoản này, bạn có thể bỏ qua email này.' },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  signup_existing: ({ name, link, resetLink }, brand) => ({
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
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  reset_password: ({ name, code, link, validMinutes = DEFAULT_CODE_MINUTES }, brand) => ({
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
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  password_changed: ({ name, resetLink, supportUrl }, brand) => ({
    subject: `Mật khẩu ${brand} của bạn đã được thay đổi`,
    heading: 'Mật khẩu của bạn đã được thay đổi',
    blocks: [
      greeting(name),
      {
        kind: 'p',
        text: `Mật khẩu tài khoản ${brand} của bạn vừa được thay đổi. Để bảo đảm an toàn, tất cả các phiên đăng nhập khác đã được đăng xuất.`,
      },
      {
        kind: 'p',
        text: 'Nếu bạn không thực hiện thay đổi này, hãy đặt lại mật khẩu ngay và liên hệ với bộ phận hỗ trợ của chúng tôi.',
      },
      ...(resetLink ? [{ kind: 'link' as const, label: 'Đặt lại mật khẩu', url: resetLink }] : []),
      ...(supportUrl ? [{ kind: 'link' as const, label: 'Liên hệ hỗ trợ', url: supportUrl }] : []),
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  login_code: ({ name, code, validMinutes = DEFAULT_CODE_MINUTES }, brand) => ({
    subject: `Mã đăng nhập ${brand} của bạn`,
    heading: 'Mã đăng nhập của bạn',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Dùng mã sau để đăng nhập vào ${brand}:` },
      { kind: 'code', code },
      { kind: 'p', text: `Mã có hiệu lực trong ${validMinutes} phút. ${neverShare(brand)}` },
      { kind: 'note', text: 'Nếu bạn không thử đăng nhập, bạn có thể bỏ qua email này.' },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  email_change_code: ({ name, code, newEmail, validMinutes = DEFAULT_CODE_MINUTES }, brand) => ({
    subject: `Xác nhận địa chỉ email mới cho ${brand}`,
    heading: 'Xác nhận địa chỉ email mới',
    blocks: [
      greeting(name),
      { kind: 'p', text: `Dùng mã sau để xác nhận ${newEmail} là địa chỉ email của tài khoản ${brand}:` },
      { kind: 'code', code },
      { kind: 'p', text: `Mã có hiệu lực trong ${validMinutes} phút. ${neverShare(brand)}` },
      { kind: 'note', text: 'Nếu bạn không yêu cầu thay đổi này, hãy bỏ qua email này. Địa chỉ email của bạn vẫn giữ nguyên.' },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),

  security_alert: ({ name, title, lines, link }, brand) => ({
    subject: `${brand}: ${title}`,
    heading: title,
    blocks: [
      greeting(name),
      ...lines.map((text) => ({ kind: 'p' as const, text })),
      ...(link ? [{ kind: 'button' as const, label: link.label, url: link.url }] : []),
      { kind: 'note', text: `Đây là thông báo bảo mật về tài khoản ${brand} của bạn.` },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  }),
};
