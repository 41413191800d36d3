import type { Language } from '@portal/contracts';
import { defineMail, type CommonWords, type MailTarget } from './compose';
import type { MailContent } from './layout';

/** A notice about the account: a title, a few lines and maybe a button; the words are the caller's. */
export interface AlertVars {
  title: string;
  lines: string[];
  link?: { label: string; url: string };
}

const notice: Record<Language, (brand: string) => string> = {
  en: (brand) => `This is a security notice about your ${brand} account.`,
  vi: (brand) => `Đây là thông báo bảo mật về tài khoản ${brand} của bạn.`,
};

const alert =
  (lang: Language) =>
  ({ name, title, lines, link }: AlertVars & MailTarget, brand: string, { greeting, signOff, footer }: CommonWords): MailContent => ({
    subject: `${brand}: ${title}`,
    heading: title,
    blocks: [
      greeting(name),
      ...lines.map((text) => ({ kind: 'p' as const, text })),
      ...(link ? [{ kind: 'button' as const, label: link.label, url: link.url }] : []),
      { kind: 'note', text: notice[lang](brand) },
    ],
    signOff: signOff(brand),
    footer: footer(brand),
  });

/** The mail of every security notice (modules write its title and lines in their own copy). */
export const renderAlert = defineMail<AlertVars>({ en: alert('en'), vi: alert('vi') });
