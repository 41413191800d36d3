import type { Language } from '@portal/contracts';
import { defineMail, type CommonWords, type MailTarget, type MailWording } from './compose';

/** A notice about the account: a title, a few lines and maybe a button; the words are the caller's. */
export interface NoticeVars {
  title: string;
  lines: string[];
  link?: { label: string; url: string };
}

/**
 * The mail of one kind of notice: the caller's title, lines and button, then a last note that
 * says in each language what the notice is about.
 */
export function defineNotice(note: Record<Language, (brand: string) => string>) {
  const wording =
    (lang: Language) =>
    ({ name, title, lines, link }: NoticeVars & MailTarget, brand: string, { greeting }: CommonWords): MailWording => ({
      subject: `${brand}: ${title}`,
      heading: title,
      blocks: [
        greeting(name),
        ...lines.map((text) => ({ kind: 'p' as const, text })),
        ...(link ? [{ kind: 'button' as const, label: link.label, url: link.url }] : []),
        { kind: 'note', text: note[lang](brand) },
      ],
    });
  return defineMail<NoticeVars>({ en: wording('en'), vi: wording('vi') });
}

/** The mail of every security notice (modules write its title and lines in their own copy). */
export const renderAlert = defineNotice({
  en: (brand) => `This is a security notice about your ${brand} account.`,
  vi: (brand) => `Đây là thông báo bảo mật về tài khoản ${brand} của bạn.`,
});
