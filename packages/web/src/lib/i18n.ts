import type { TFunction } from 'i18next';
import { DEFAULT_LANGUAGE, type Language } from '@portal/contracts';
import publicEn from '../i18n/parts/public.en';
import { Translator } from './translator';

/**
 * One translator for the app (lib/translator.ts, i18next's interface). The catalogue's files are
 * one per capability (i18n/<capability>.<language>.json, named like the server module its screens
 * talk to; app-wide words in app*.json and shell.*.json), loaded in parts (i18n/parts/) so the
 * sign-in page carries only its own text: `public` (the first paint: layouts, form messages, the
 * first sign-in step, the HTTP statuses' texts), `pages` (the other public pages, sign-in steps,
 * sign-up, recovery, results), `errors` (the API's error codes), `account` (the signed-in pages,
 * loaded with the shell) with `security` (security, second factors, passkeys), and `admin`. English
 * public text, the fallback, ships with the app so no text on the first paint can show as a bare
 * key; everything else is fetched when a page needs it (its route loader) or when the language
 * changes. An error code whose text is not loaded shows the server's own (English) message.
 * Placeholders use single braces, `{email}`, like the error catalogue in contracts.
 */
/** Typed as i18next's `t`: keys and placeholders are checked against the English catalogue (i18n/i18next.d.ts). */
type AppI18n = Omit<Translator, 't' | 'getFixedT'> & { t: TFunction; getFixedT(language: string): TFunction };

export const i18n = new Translator() as unknown as AppI18n;

type Catalogue = Record<string, unknown>;
/** A part: its files, each a catalogue of one capability (deep-merged into the translator). */
type CatalogueLoader = () => Promise<{ default: Catalogue[] }>;

const catalogueParts = {
  public: {
    en: async () => ({ default: publicEn }),
    vi: () => import('../i18n/parts/public.vi'),
  },
  pages: {
    en: () => import('../i18n/parts/pages.en'),
    vi: () => import('../i18n/parts/pages.vi'),
  },
  errors: {
    en: () => import('../i18n/parts/errors.en'),
    vi: () => import('../i18n/parts/errors.vi'),
  },
  account: {
    en: () => import('../i18n/parts/account.en'),
    vi: () => import('../i18n/parts/account.vi'),
  },
  /** Security, second factors and passkeys: the security pages, their dialogs (re-authentication, second factor), passkey and email-code sign-in. */
  security: {
    en: () => import('../i18n/parts/security.en'),
    vi: () => import('../i18n/parts/security.vi'),
  },
  /** The operators' console (/admin): its shell, menu and every area's page. */
  admin: {
    en: () => import('../i18n/parts/admin.en'),
    vi: () => import('../i18n/parts/admin.vi'),
  },
} satisfies Record<string, Record<Language, CatalogueLoader>>;

type CataloguePart = keyof typeof catalogueParts;

/** Parts the current page needs; a language switch loads all of them in the new language. */
const neededParts = new Set<CataloguePart>(['public']);
const loaded = new Set<string>(['public:en']);
/** The language being switched to (start-up, the picker), so a part asked for meanwhile comes in it too. */
let targetLanguage: Language = DEFAULT_LANGUAGE;

async function loadPart(part: CataloguePart, language: Language): Promise<void> {
  const id = `${part}:${language}`;
  if (loaded.has(id)) return;
  const { default: files } = await catalogueParts[part][language]();
  for (const catalogue of files) i18n.addResourceBundle(language, 'translation', catalogue, true, true);
  loaded.add(id);
}

export function initI18n(language: Language = DEFAULT_LANGUAGE): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.init({ lng: language, fallbackLng: DEFAULT_LANGUAGE, supportedLngs: ['en', 'vi'] });
    for (const catalogue of publicEn) i18n.addResourceBundle(DEFAULT_LANGUAGE, 'translation', catalogue, true, true);
  }
  return i18n;
}

/** Load every needed part of `language`'s catalogue (a no-op for what is loaded). */
export async function loadCatalogue(language: Language): Promise<void> {
  targetLanguage = language;
  await Promise.all([...neededParts].map((part) => loadPart(part, language)));
}

/** Parts a page needs, in the English fallback, the language shown and the one being switched to. */
async function needParts(...parts: CataloguePart[]): Promise<void> {
  const languages = new Set<Language>([DEFAULT_LANGUAGE, (i18n.resolvedLanguage ?? DEFAULT_LANGUAGE) as Language, targetLanguage]);
  for (const part of parts) neededParts.add(part);
  await Promise.all(parts.flatMap((part) => [...languages].map((language) => loadPart(part, language))));
}

/** The public pages' text beyond the first sign-in step, with the error codes' (their route loaders). */
export const loadPagesCatalogue = () => needParts('pages', 'errors');

/** The signed-in shell's text, with the error codes'. */
export const loadAccountCatalogue = () => needParts('account', 'security', 'errors');

/** The operators' console, with what its re-authentication dialog and error messages say. */
export const loadAdminCatalogue = () => needParts('admin', 'account', 'security', 'errors');

/** Passkey and email-code sign-in (their pieces on the public pages load it when they mount). */
export const loadSecurityCatalogue = () => needParts('security', 'errors');
