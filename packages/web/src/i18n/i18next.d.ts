import 'i18next';
import type account from './account.en.json';
import type admin from './admin.en.json';
import type en from './en.json';
import type errors from './errors.en.json';
import type pages from './pages.en.json';
import type security from './security.en.json';

// English is the reference catalogue: keys and `{placeholder}` parameters are checked
// against it at compile time; the Vietnamese files are held to the same keys by
// i18n/catalogue.test.ts. `en.json` ships with the app (first paint), `pages.*.json` loads
// with the other public pages, `errors.*.json` (API error codes) with them and with the
// signed-in shell, `account.*.json` with the shell, `admin.*.json` with the operators' console (lib/i18n.ts).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & typeof pages & typeof errors & typeof account & typeof security & typeof admin };
    interpolationPrefix: '{';
    interpolationSuffix: '}';
  }
}
