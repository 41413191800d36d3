import { isLanguage, type Language } from '@portal/contracts';
import { useTranslation } from 'react-i18next';

/** The language shown now, for the contracts' money and date formats. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : 'en';
}
