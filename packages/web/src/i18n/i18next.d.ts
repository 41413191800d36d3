import 'i18next';
import type account from './account.en.json';
import type en from './en.json';

// English is the reference catalogue: keys and `{placeholder}` parameters are checked
// against it at compile time; the Vietnamese files are held to the same keys by
// i18n/catalogue.test.ts. `account.*.json` holds the signed-in pages' text (loaded with
// the shell), the rest is everywhere.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & typeof account };
    interpolationPrefix: '{';
    interpolationSuffix: '}';
  }
}
