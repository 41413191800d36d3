import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brands, findPlan, formatDate, formatMinor, isBillingCurrency, type BrandId, type Language } from '@portal/contracts';
import PDFDocument from 'pdfkit';
import type { OrderRow } from './queries';

const require = createRequire(import.meta.url);
/** DejaVu Sans has the Vietnamese glyphs (pdfkit's built-in Helvetica has none). */
const FONT_PATH = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD_PATH = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
/** Read once: every invoice embeds a subset of the same two fonts. */
let fonts: { regular: Buffer; bold: Buffer } | undefined;
const loadFonts = () => (fonts ??= { regular: readFileSync(FONT_PATH), bold: readFileSync(FONT_BOLD_PATH) });

const words = {
  en: {
    invoice: 'Invoice',
    number: 'Invoice number',
    date: 'Date',
    billedTo: 'Billed to',
    plan: 'Plan',
    months: 'Months',
    price: 'Price',
    discount: 'Discount',
    subtotal: 'Subtotal',
    credit: 'Credit for unused time',
    total: 'Total',
    paidWith: 'Payment method',
    status: 'Status',
    paid: 'Paid',
    promo: 'Promo code',
    thanks: 'Thank you for your purchase.',
  },
  vi: {
    invoice: 'Hóa đơn',
    number: 'Số hóa đơn',
    date: 'Ngày',
    billedTo: 'Người thanh toán',
    plan: 'Gói',
    months: 'Số tháng',
    price: 'Giá',
    discount: 'Giảm giá',
    subtotal: 'Tạm tính',
    credit: 'Hoàn lại thời gian chưa dùng',
    total: 'Tổng cộng',
    paidWith: 'Phương thức thanh toán',
    status: 'Trạng thái',
    paid: 'Đã thanh toán',
    promo: 'Mã khuyến mãi',
    thanks: 'Cảm ơn bạn đã mua hàng.',
  },
} as const;

/** The invoice of a paid order as a PDF, in `lang`, made on the server (text is real text: readable and searchable). */
export async function renderInvoice(order: OrderRow, person: { name: string; email: string }, lang: Language, brand: BrandId): Promise<Buffer> {
  const w = words[lang];
  const currency = isBillingCurrency(order.currency) ? order.currency : 'USD';
  const money = (minor: number) => formatMinor(minor, currency, lang);
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${w.invoice} ${order.number}`, Author: brands[brand].title } });
  const { regular, bold } = loadFonts();
  doc.registerFont('body', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(20).text(brands[brand].title);
  doc.moveDown(0.5).fontSize(16).text(w.invoice);
  doc.moveDown().font('body').fontSize(11);
  const line = (label: string, value: string) => doc.font('bold').text(`${label}: `, { continued: true }).font('body').text(value);
  line(w.number, order.number);
  line(w.date, formatDate(order.paidAt ?? order.createdAt, lang, { timeZone: 'UTC' }));
  line(w.billedTo, `${person.name} <${person.email}>`);
  const address = order.billingAddress;
  if (address) doc.text([address.cardholder, address.city, address.state, address.zip, address.country].filter(Boolean).join(', '));
  doc.moveDown();
  line(w.plan, findPlan(order.plan)?.name ?? order.plan);
  line(w.months, String(order.months));
  line(w.price, money(order.price));
  if (order.discount > 0) line(w.discount, `-${money(order.discount)}${order.promoCode ? ` (${w.promo} ${order.promoCode})` : ''}`);
  line(w.subtotal, money(order.subtotal));
  if (order.credit > 0) line(w.credit, `-${money(order.credit)}`);
  doc.font('bold').fontSize(13).text(`${w.total}: ${money(order.total)}`);
  doc.fontSize(11).font('body').moveDown();
  if (order.paymentMethodLabel) line(w.paidWith, order.paymentMethodLabel);
  line(w.status, w.paid);
  doc.moveDown().text(w.thanks);
  doc.end();
  return done;
}
