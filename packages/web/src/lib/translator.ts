/**
 * The app's translator, behind i18next's interface as far as the app uses it (lib/i18n.ts;
 * react-i18next's hooks come from lib/react-i18n.tsx): nested catalogues per language merged
 * part by part, the English fallback, `{name}` placeholders (a missing value keeps its
 * placeholder), counts by Intl.PluralRules with `_one`/`_other` keys, `defaultValue`, and the
 * `languageChanged` event. The keys and placeholders stay checked at compile time by i18next's
 * own types (i18n/i18next.d.ts). i18next with react-i18next was ~16 KB Brotli of the sign-in
 * page's 100 KB budget (i18next 14.0 KB, react-i18next 2.4 KB, measured by source map in the
 * entry chunk); this is under 1 KB.
 */
type Catalogue = { [key: string]: unknown };
type Options = { [name: string]: unknown; count?: unknown; defaultValue?: unknown };
type Listener = (language: string) => void;

export interface TranslatorOptions {
  resources?: Record<string, Record<string, Catalogue>>;
  lng?: string;
  fallbackLng?: string;
  supportedLngs?: readonly string[];
}

const NAMESPACE = 'translation';
const PLACEHOLDER = /\{\s*([\w.]+)\s*\}/g;

function isCatalogue(value: unknown): value is Catalogue {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(target: Catalogue, source: Catalogue, overwrite: boolean): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isCatalogue(existing) && isCatalogue(value)) merge(existing, value, overwrite);
    else if (overwrite || existing === undefined) target[key] = isCatalogue(value) ? structuredClone(value) : value;
  }
}

export class Translator {
  language = 'en';
  resolvedLanguage: string | undefined;
  isInitialized = false;
  private fallback = 'en';
  private supported: readonly string[] | undefined;
  private store: Record<string, Catalogue> = {};
  private listeners = new Set<Listener>();
  private plurals = new Map<string, Intl.PluralRules>();

  use(): this {
    return this;
  }

  init(options: TranslatorOptions): Promise<void> {
    this.fallback = options.fallbackLng ?? this.fallback;
    this.supported = options.supportedLngs;
    for (const [language, namespaces] of Object.entries(options.resources ?? {})) {
      const bundle = namespaces[NAMESPACE];
      if (bundle) this.addResourceBundle(language, NAMESPACE, bundle, true, true);
    }
    this.setLanguage(options.lng ?? this.fallback);
    this.isInitialized = true;
    return Promise.resolve();
  }

  addResourceBundle(language: string, _namespace: string, bundle: Catalogue, _deep?: boolean, overwrite = false): this {
    merge((this.store[language] ??= {}), bundle, overwrite);
    return this;
  }

  getResource(language: string, _namespace: string, key: string): unknown {
    let node: unknown = this.store[language];
    for (const part of key.split('.')) node = isCatalogue(node) ? node[part] : undefined;
    return node;
  }

  changeLanguage(language: string): Promise<Translator['t']> {
    this.setLanguage(language);
    for (const listener of this.listeners) listener(language);
    return Promise.resolve(this.t);
  }

  on(event: 'languageChanged', listener: Listener): void {
    if (event === 'languageChanged') this.listeners.add(listener);
  }

  off(event: 'languageChanged', listener: Listener): void {
    if (event === 'languageChanged') this.listeners.delete(listener);
  }

  exists(key: string, options: Options = {}): boolean {
    return this.lookup(key, options, this.language) !== undefined;
  }

  /** `t` for one language: a new function per language, so memoised texts follow a switch. */
  getFixedT(language: string): Translator['t'] {
    return (key: string, options?: Options) => this.translate(key, options, language);
  }

  t = (key: string, options?: Options): string => this.translate(key, options, this.language);

  private setLanguage(language: string): void {
    this.language = language;
    this.resolvedLanguage = !this.supported || this.supported.includes(language) ? language : this.fallback;
  }

  private lookup(key: string, options: Options, language: string): string | undefined {
    const count = options.count;
    for (const code of new Set([language, this.fallback])) {
      if (typeof count === 'number') {
        let rules = this.plurals.get(code);
        if (!rules) this.plurals.set(code, (rules = new Intl.PluralRules(code)));
        const plural = this.getResource(code, NAMESPACE, `${key}_${rules.select(count)}`);
        if (typeof plural === 'string') return plural;
      }
      const value = this.getResource(code, NAMESPACE, key);
      if (typeof value === 'string') return value;
    }
    return undefined;
  }

  private translate(key: string, options: Options = {}, language: string): string {
    const text = this.lookup(key, options, language) ?? (typeof options.defaultValue === 'string' ? options.defaultValue : key);
    return text.replace(PLACEHOLDER, (placeholder, name: string) => {
      const value = options[name];
      return value === undefined || value === null ? placeholder : String(value);
    });
  }
}
