import 'i18next';
import type account from './parts/account.en';
import type admin from './parts/admin.en';
import type errors from './parts/errors.en';
import type pages from './parts/pages.en';
import type first from './parts/public.en';
import type security from './parts/security.en';

/** Every file of every part, as one catalogue (the translator deep-merges them). */
type Files = (typeof first)[number] | (typeof pages)[number] | (typeof errors)[number] | (typeof account)[number] | (typeof security)[number] | (typeof admin)[number];
type Merged<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;

// English is the reference catalogue: keys and `{placeholder}` parameters are checked
// against it at compile time; the Vietnamese files are held to the same keys by
// i18n/catalogue.test.ts. A file per capability (`auth.en.json`, `wallet.en.json`, ...), in
// the parts lib/i18n.ts loads (i18n/parts/): `public` ships with the app (first paint), `pages`
// loads with the other public pages, `errors` (API error codes) with them and with the signed-in
// shell, `account` and `security` with the shell, `admin` with the operators' console.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Merged<Files> };
    interpolationPrefix: '{';
    interpolationSuffix: '}';
  }
}
