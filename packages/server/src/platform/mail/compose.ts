import { brands, type BrandId, type Language } from '@portal/contracts';
import { renderLayout, type Block, type MailContent, type RenderedMail } from './layout';

/** How long a mailed code lives when the caller does not say. */
export const DEFAULT_CODE_MINUTES = 10;

/** The words every mail of one language shares. `brand` is the brand's display name. */
export interface CommonWords {
  greeting(name?: string): Block;
  signOff(brand: string): string;
  footer(brand: string): string;
  /** A mailed code, then how long it is valid and that it is never to be shared. */
  mailedCode(code: string, validMinutes: number, brand: string): Block[];
}

const common: Record<Language, CommonWords> = {
  en: {
    greeting: (name) => ({ kind: 'p', text: name ? `Hi ${name},` : 'Hi,' }),
    signOff: (brand) => `— The ${brand} team`,
    footer: (brand) => `This is an automated message from ${brand}. Please do not reply to this email.`,
    mailedCode: (code, validMinutes, brand) => [
      { kind: 'code', code },
      { kind: 'p', text: `The code is valid for ${validMinutes} minutes. Never share this code with anyone. ${brand} staff will never ask you for it.` },
    ],
  },
  vi: {
    greeting: (name) => ({ kind: 'p', text: name ? `Xin chào ${name},` : 'Xin chào,' }),
    signOff: (brand) => `— Đội ngũ ${brand}`,
    footer: (brand) => `Đây là email tự động từ ${brand}. Vui lòng không trả lời email này.`,
    mailedCode: (code, validMinutes, brand) => [
      { kind: 'code', code },
      { kind: 'p', text: `Mã có hiệu lực trong ${validMinutes} phút. Tuyệt đối không chia sẻ mã này với bất kỳ ai. Nhân viên ${brand} sẽ không bao giờ hỏi bạn mã này.` },
    ],
  },
};

/** What every mail needs from its caller besides its own values. */
export interface MailTarget {
  lang: Language;
  brand: BrandId;
  /** The recipient's name for the greeting, when known. */
  name?: string;
}

type Wording<Vars> = (vars: Vars & MailTarget, brand: string, words: CommonWords) => MailContent;

/**
 * One kind of mail, written once per language beside each other in the module that sends it.
 * The result renders it in the recipient's language and brand: subject, plain-text part
 * (always) and a simple inline-styled HTML part. Every value is escaped in the HTML; links must
 * be absolute http(s) URLs (the caller knows the brand's public origin).
 */
export function defineMail<Vars>(wording: Record<Language, Wording<Vars>>): (vars: Vars & MailTarget) => RenderedMail {
  return (vars) => {
    const lang = wording[vars.lang] ? vars.lang : 'en';
    return renderLayout(wording[lang](vars, brands[vars.brand].title, common[lang]), vars.brand, lang);
  };
}
