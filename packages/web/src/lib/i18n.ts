import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language } from '@portal/contracts';
import en from '../i18n/en.json';

/**
 * One i18next instance for the app. The catalogue comes in parts so the sign-in page
 * carries only its own text: `public` (layouts, sign-in, errors) and `account` (the
 * signed-in pages, loaded with the shell). English public text, the fallback, ships with
 * the app so no text can ever show as a bare key; everything else is fetched when needed.
 * Placeholders use single braces, `{email}`, like the error catalogue in contracts.
 */
export const i18n = i18next.createInstance();

type Catalogue = Record<string, unknown>;
type CatalogueLoader = () => Promise<{ default: Catalogue }>;

const catalogueParts = {
  public: {
    en: async () => ({ default: en }),
    vi: () => import('../i18n/vi.json'),
  },
  account: {
    en: () => import('../i18n/account.en.json'),
    vi: () => import('../i18n/account.vi.json'),
  },
} satisfies Record<string, Record<Language, CatalogueLoader>>;

type CataloguePart = keyof typeof catalogueParts;

/** Parts the current page needs; a language switch loads all of them in the new language. */
const neededParts = new Set<CataloguePart>(['public']);
const loaded = new Set<string>(['public:en']);

async function loadPart(part: CataloguePart, language: Language): Promise<void> {
  const id = `${part}:${language}`;
  if (loaded.has(id)) return;
  const { default: catalogue } = await catalogueParts[part][language]();
  i18n.addResourceBundle(language, 'translation', catalogue, true, true);
  loaded.add(id);
}

export function initI18n(language: Language = DEFAULT_LANGUAGE): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: { translation: en } },
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: ['en', 'vi'],
      interpolation: { prefix: '{', suffix: '}', escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
  }
  return i18n;
}

/** Load every needed part of `language`'s catalogue (a no-op for what is loaded). */
export async function loadCatalogue(language: Language): Promise<void> {
  await Promise.all([...neededParts].map((part) => loadPart(part, language)));
}

/** The signed-in shell's text, in the current language and the English fallback. */
export async function loadAccountCatalogue(): Promise<void> {
  neededParts.add('account');
  const current = (i18n.resolvedLanguage ?? DEFAULT_LANGUAGE) as Language;
  await Promise.all([loadPart('account', DEFAULT_LANGUAGE), loadPart('account', current)]);
}
