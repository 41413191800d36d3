import { useTranslation } from 'react-i18next';
import { isLanguage, languages } from '@portal/contracts';
import { chooseLanguage } from '../lib/language';
import classes from './LanguagePicker.module.css';

/**
 * A plain native select: accessible, the phone's own picker on mobile, and light enough
 * to sit in every layout (Mantine's NativeSelect would bring its whole input stack, ~7 KB
 * gzipped, onto the sign-in page for this one control).
 */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  return (
    <select
      className={classes.select}
      aria-label={t('language.label')}
      data-testid="language-picker"
      value={i18n.resolvedLanguage ?? i18n.language}
      onChange={(event) => {
        const value = event.currentTarget.value;
        // A failed save is reported by the API client's policy; the switch itself stands.
        if (isLanguage(value)) chooseLanguage(value).catch(() => undefined);
      }}
    >
      {languages.map((language) => (
        // Each language is named in itself, so a reader of either can find theirs.
        <option key={language} value={language}>
          {t(`language.${language}`)}
        </option>
      ))}
    </select>
  );
}
