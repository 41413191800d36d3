/**
 * The sign-in page's first screen, rendered on the server (src/first-screen.tsx) and sent in
 * the shell of `/login`, is painted before the app's JavaScript arrives. The app renders its
 * live page in its place only once the first navigation has resolved (guards answered, the
 * page's code loaded), so the visitor sees the first screen, then the same page alive, never a
 * loader between them.
 */

/** The attribute on the server-rendered first screen's wrapper. */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen';

export function hasFirstScreen(): boolean {
  return document.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`) !== null;
}

/** A chain of guards' redirects longer than this is a bug; the app then resolves it live. */
const MAX_REDIRECTS = 10;

/**
 * Resolves the page's URL before the router exists, following the guards' redirects in the
 * address bar (as replacements, as a router would on a first load). The path with query the
 * first render may show at once, or undefined when that could not be settled here.
 */
export async function settleFirstLocation(resolve: (url: URL) => Promise<string | undefined>): Promise<string | undefined> {
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const redirect = await resolve(new URL(location.href));
      if (redirect === undefined) return `${location.pathname}${location.search}`;
      history.replaceState(null, '', redirect);
    }
  } catch {
    // The live navigation resolves again and shows what failed.
  }
  return undefined;
}
