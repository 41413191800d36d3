import { brands, type BrandId, type Language } from '@portal/contracts';
import { renderLayout, type Block, type MailContent, type RenderedMail } from './layout';

/** How long a mailed code lives when the caller does not say. */
export const DEFAULT_CODE_MINUTES = 10;

/** The words the mails of one language share in their own text. `brand` is the brand's display name. */
export interface CommonWords {
  greeting(name?: string): Block;
  /** A mailed code, then how long it is valid and that it is never to be shared. */
  mailedCode(code: string, validMinutes: number, brand: string): Block[];
}

const common: Record<Language, CommonWords> = {
  en: {
    greeting: (name) => ({ kind: 'p', text: name ? `Hi ${name},` : 'Hi,' }),
    mailedCode: (code, validMinutes, brand) => [
      { kind: 'code', code },
      { kind: 'p', text: `The code is valid for ${validMinutes} minutes. Never share this code with anyone. ${brand} staff will never ask you for it.` },
    ],
  },
  vi: {
    greeting: (name) => ({ kind: 'p', text: name ? `Xin chào ${name},` : 'Xin chào,' }),
    mailedCode: (code, validMinutes, brand) => [
      { kind: 'code', code },
      { kind: 'p', text: `Mã có hiệu lực trong ${validMinutes} phút. Tuyệt đối không chia sẻ mã này với bất kỳ ai. Nhân viên ${brand} sẽ không bao giờ hỏi bạn mã này.` },
    ],
  },
};

/** How every mail of one language ends: the sign-off, then the footer. */
const closing: Record<Language, (brand: string) => Pick<MailContent, 'signOff' | 'footer'>> = {
  en: (brand) => ({
    signOff: `— The ${brand} team`,
    footer: `This is an automated message from ${brand}. Please do not reply to this email.`,
  }),
  vi: (brand) => ({
    signOff: `— Đội ngũ ${brand}`,
    footer: `Đây là email tự động từ ${brand}. Vui lòng không trả lời email này.`,
  }),
};

/** What every mail needs from its caller besides its own values. */
export interface MailTarget {
  lang: Language;
  brand: BrandId;
  /** The recipient's name for the greeting, when known. */
  name?: string;
}

/** What one mail says in one language; every mail ends with the same sign-off and footer (`closing`). */
export type MailWording = Omit<MailContent, 'signOff' | 'footer'>;

type Wording<Vars> = (vars: Vars & MailTarget, brand: string, words: CommonWords) => MailWording;

/**
 * One kind of mail, written once per language beside each other in the module that sends it.
 * The result renders it in the recipient's language and brand: subject, plain-text part
 * (always) and a simple inline-styled HTML part. Every value is escaped in the HTML; links must
 * be absolute http(s) URLs (the caller knows the brand's public origin).
 */
export function defineMail<Vars>(wording: Record<Language, Wording<Vars>>): (vars: Vars & MailTarget) => RenderedMail {
  return (vars) => {
    const lang = wording[vars.lang] ? vars.lang : 'en';
    const brand = brands[vars.brand].title;
    return renderLayout({ ...wording[lang](vars, brand, common[lang]), ...closing[lang](brand) }, vars.brand, lang);
  };
}
