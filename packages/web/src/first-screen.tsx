/**
 * The sign-in page's first screen as HTML, for the server to put in the shell of `/login`
 * (the build's `dist/.ssr/first-screen.js`, made by `vite build --ssr`; never shipped to
 * browsers). The browser paints the page from this markup before the app's JavaScript has
 * arrived; the app then renders its own live page in its place (main.tsx). The markup is
 * inert (nothing in it can be used or focused) until then.
 *
 * Rendered by the server, once per brand and language, with the runtime config it sends with
 * the page, so logo link, social buttons and texts are the ones the live page shows.
 */
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { Language, RuntimeConfig } from '@portal/contracts';
import { AppProviders } from './app/AppProviders';
import { AuthLayout } from './app/layouts/AuthLayout';
import { LoginPage } from './features/auth/LoginPage';
import firstPaintVi from './i18n/parts/public.vi';
import { FIRST_SCREEN_ATTRIBUTE } from './lib/first-screen';
import { i18n, initI18n } from './lib/i18n';

initI18n('en');
for (const catalogue of firstPaintVi) i18n.addResourceBundle('vi', 'translation', catalogue, true, true);

/** The markup of `/login` (no query, signed out) in `language`, for `config`'s brand. */
export function renderFirstScreen(config: RuntimeConfig, language: Language): string {
  void i18n.changeLanguage(language);
  const html = renderToString(
    <AppProviders config={config}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route element={<AuthLayout />}>
            <Route path="/login" element={<LoginPage />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
  const { markup, rules } = styleAttributesToRules(html.replace(/<input /g, '<input readonly '));
  // Fields read-only as well as inert: a test or a person waits for the live page to type.
  return `<style>${rules}</style><div ${FIRST_SCREEN_ATTRIBUTE} inert>${markup}</div>`;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#x27;': "'", '&lt;': '<', '&gt;': '>' };

/**
 * The page's CSP allows no `style` attributes in markup (React sets its inline styles through
 * the DOM, which the CSP does not govern). Each distinct one becomes a rule of a `<style>`
 * element (which the server gives the response's nonce), keyed by a data attribute, each
 * declaration `!important` as an inline style would win.
 */
export function styleAttributesToRules(html: string): { markup: string; rules: string } {
  const ids = new Map<string, number>();
  const markup = html.replace(/ style="([^"]*)"/g, (_, style: string) => {
    const id = ids.get(style) ?? ids.size;
    ids.set(style, id);
    return ` data-fs-style="${id}"`;
  });
  const rules = [...ids]
    .map(([style, id]) => {
      const css = style.replace(/&(amp|quot|#x27|lt|gt);/g, (entity) => ENTITIES[entity]!).replace(/</g, '\\3c ');
      const declarations = css.split(';').filter((declaration) => declaration.trim());
      return `[data-fs-style="${id}"]{${declarations.map((declaration) => `${declaration} !important`).join(';')}}`;
    })
    .join('');
  return { markup, rules };
}
