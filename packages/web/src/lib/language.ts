import {
  DEFAULT_LANGUAGE,
  firstPaintRoutes,
  isLanguage,
  LANG_COOKIE,
  LANG_COOKIE_MAX_AGE,
  type accountEndpoints,
  type Language,
  type resourceEndpoints,
  type UpdateMeRequest,
} from '@portal/contracts';
import { call } from './api';
import { appState } from './app-state';
import { readCookie, writeCookie } from './cookies';
import { i18n, loadCatalogue } from './i18n';
import { currentUser, setSessionUser, type SessionUser } from './session';

/** How long start-up waits for the language-by-IP answer before settling for the default. */
const IP_LANGUAGE_TIMEOUT_MS = 1500;

export interface LanguageSources {
  cookie(): string | undefined;
  byIp(signal: AbortSignal): Promise<unknown>;
  timeoutMs?: number;
}

const defaultSources: LanguageSources = {
  cookie: () => readCookie(LANG_COOKIE),
  byIp: async (signal) => (await call<typeof resourceEndpoints.lang>(firstPaintRoutes.lang, {}, { handle: 'all', signal }))?.lang,
};

/** Start-up's sources with the server's guess embedded in the page (RuntimeConfig.language), when there is one, instead of asking for it. */
export function languageSources(embedded: Language | undefined): LanguageSources {
  return embedded ? { ...defaultSources, byIp: async () => embedded } : defaultSources;
}

/**
 * The start-up language: the `lang` cookie (an explicit choice), else the server's guess
 * from the visitor's IP, else English. A slow or failing guess never blocks the first paint
 * for long: it is abandoned after a short timeout.
 */
export async function resolveInitialLanguage(sources: LanguageSources = defaultSources): Promise<Language> {
  const fromCookie = sources.cookie();
  if (isLanguage(fromCookie)) return fromCookie;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), sources.timeoutMs ?? IP_LANGUAGE_TIMEOUT_MS);
  try {
    const byIp = await sources.byIp(controller.signal);
    if (isLanguage(byIp)) return byIp;
  } catch {
    // no answer: fall through to the default
  } finally {
    clearTimeout(timer);
  }
  return DEFAULT_LANGUAGE;
}

/**
 * Show the interface in `language` (no persistence): i18n, <html lang>, app state. When its
 * catalogue cannot be fetched (offline, a deploy in between) the current language stays;
 * the answer is the language actually shown.
 */
export async function applyLanguage(language: Language): Promise<Language> {
  try {
    await loadCatalogue(language);
  } catch (error) {
    console.warn(`Could not load the ${language} catalogue`, error);
    return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  }
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
  appState.set({ language });
  return language;
}

type LanguageChoice = SessionUser & Pick<UpdateMeRequest, 'language' | 'customer_language'>;

/** The profile update takes the whole user object; the answer is the user as saved. */
async function saveOnAccount(user: LanguageChoice): Promise<SessionUser> {
  return call<typeof accountEndpoints.updateMe>(firstPaintRoutes.updateMe, { body: user });
}

/**
 * The language picker: switch, remember the choice in the `lang` cookie, and when signed in
 * save it on the account, with the user object plus both languages.
 */
export async function chooseLanguage(language: Language, save: (user: LanguageChoice) => Promise<SessionUser> = saveOnAccount): Promise<void> {
  if ((await applyLanguage(language)) !== language) return;
  writeCookie(LANG_COOKIE, language, { maxAge: LANG_COOKIE_MAX_AGE });

  // Known on most pages; asked here on the few public pages that never needed it.
  const user = await currentUser();
  if (!user) return;
  setSessionUser(await save({ ...user, language, customer_language: language }));
}

/**
 * The signed-in account's language (GET /sso/me, the spec's entities) shown and remembered the way
 * the picker remembers a choice (the `lang` cookie), once the session is found on load; a
 * sign-in reloads the app, so this covers "after sign-in" too. A `lang` cookie already here is
 * this browser's own choice (the picker saves it on the account as well) and stands.
 */
export async function followAccountLanguage(user: Pick<SessionUser, 'language'>, cookie: () => string | undefined = () => readCookie(LANG_COOKIE)): Promise<void> {
  if (!isLanguage(user.language) || isLanguage(cookie())) return;
  if ((await applyLanguage(user.language)) !== user.language) return;
  writeCookie(LANG_COOKIE, user.language, { maxAge: LANG_COOKIE_MAX_AGE });
}
