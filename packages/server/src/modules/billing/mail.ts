import { defineNotice, type NoticeVars } from '../../platform/mail';

/**
 * Billing's mails, English and Vietnamese side by side: a receipt (the invoice PDF attached),
 * a failed renewal (with the next try), a subscription ended, the business trial started.
 */
export const billingMail = defineNotice({
  en: () => 'This is a billing notice about your account.',
  vi: () => 'Đây là thông báo thanh toán về tài khoản của bạn.',
});

export interface CopyVars {
  plan: string;
  total: string;
  number: string;
  card: string;
  date: string;
  email: string;
  company: string;
  /** How long a trial lasts: the plan's, never written into the words. */
  days: number;
}

const en = {
  receipt: (v: Pick<CopyVars, 'plan' | 'total' | 'number' | 'card'>): NoticeVars => ({
    title: `Receipt for ${v.plan}`,
    lines: [`We charged ${v.total} to ${v.card} for ${v.plan}.`, `Invoice ${v.number} is attached to this email and can be downloaded from your orders.`],
  }),
  renewalFailed: (v: Pick<CopyVars, 'plan' | 'total' | 'date'>): NoticeVars => ({
    title: `Payment for ${v.plan} failed`,
    lines: [`We could not charge ${v.total} for ${v.plan}. Your subscription is past due.`, `We will try again on ${v.date}. Update your payment card before then to keep your plan.`],
  }),
  canceled: (v: Pick<CopyVars, 'plan'>): NoticeVars => ({
    title: `Your ${v.plan} subscription was cancelled`,
    lines: [`Your ${v.plan} subscription has ended. You can subscribe again at any time from your account.`],
  }),
  businessTrial: (v: Pick<CopyVars, 'company' | 'email' | 'date' | 'days'>): NoticeVars => ({
    title: 'Your business trial has started',
    lines: [`The ${v.days}-day business trial of ${v.company} is active until ${v.date}.`, `You are its owner: manage your organization from your account ${v.email}.`],
  }),
  cardLabel: (brand: string, last4: string) => `${brand} ending in ${last4}`,
};

const vi: typeof en = {
  receipt: (v) => ({
    title: `Biên nhận cho ${v.plan}`,
    lines: [`Chúng tôi đã thu ${v.total} từ ${v.card} cho ${v.plan}.`, `Hóa đơn ${v.number} được đính kèm email này và có thể tải về từ danh sách đơn hàng của bạn.`],
  }),
  renewalFailed: (v) => ({
    title: `Thanh toán cho ${v.plan} không thành công`,
    lines: [`Chúng tôi không thu được ${v.total} cho ${v.plan}. Gói đăng ký của bạn đang quá hạn thanh toán.`, `Chúng tôi sẽ thử lại vào ngày ${v.date}. Hãy cập nhật thẻ thanh toán trước thời điểm đó để giữ gói của bạn.`],
  }),
  canceled: (v) => ({
    title: `Gói ${v.plan} của bạn đã bị hủy`,
    lines: [`Gói ${v.plan} của bạn đã kết thúc. Bạn có thể đăng ký lại bất cứ lúc nào trong tài khoản.`],
  }),
  businessTrial: (v) => ({
    title: 'Bản dùng thử doanh nghiệp đã bắt đầu',
    lines: [`Bản dùng thử doanh nghiệp ${v.days} ngày của ${v.company} có hiệu lực đến ${v.date}.`, `Bạn là chủ sở hữu: hãy quản lý tổ chức từ tài khoản ${v.email} của bạn.`],
  }),
  cardLabel: (brand, last4) => `${brand} đuôi ${last4}`,
};

export function billingCopy(lang: 'en' | 'vi') {
  return lang === 'vi' ? vi : en;
}
