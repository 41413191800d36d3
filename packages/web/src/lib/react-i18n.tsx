/**
 * What the app uses of react-i18next, on the app's translator (lib/translator.ts): the build
 * and the tests resolve `react-i18next` here (vite.config.ts, vitest.config.ts), so components
 * keep importing `useTranslation` and `Trans` from it, typed by its own declarations.
 * `useTranslation` re-renders on a language change with a new `t`, as react-i18next does.
 */
import { cloneElement, isValidElement, useMemo, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { i18n } from './i18n';

const subscribe = (onChange: () => void) => {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
};
const currentLanguage = () => i18n.language;

export function useTranslation() {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  const t = useMemo(() => i18n.getFixedT(language), [language]);
  return { t, i18n, ready: true };
}

const TAG = /<(\w+)>(.*?)<\/\1>|<(\w+)\s*\/>/g;

/**
 * A text with named tags (`I agree to the <terms>Terms</terms>`), each given as the element
 * of that name in `components` with the tag's text inside; tags do not nest.
 */
export function Trans({ i18nKey, values, components = {} }: { i18nKey: string; values?: Record<string, unknown>; components?: Record<string, ReactElement> }) {
  const { t } = useTranslation();
  const text = (t as (key: string, options?: object) => string)(i18nKey, values);
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    parts.push(text.slice(last, match.index));
    const element = components[match[1] ?? match[3]!];
    parts.push(isValidElement(element) ? cloneElement(element, { key: match.index }, match[2]) : (match[2] ?? ''));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

