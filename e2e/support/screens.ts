import { errors, expect, type Page } from '@playwright/test';

/*
 * Walking an app's screens one after another in one page, each measured once it has finished
 * (the accessibility sweep, the phone layout check).
 */

/** How long a screen must stay still (no request in flight, no DOM change) before it is measured. */
const STILL_MS = 150;

/**
 * What is on a screen that has not finished: a navigation resolving (the page being left is
 * aria-busy, as is the first-load spinner) or a part of the page whose data is still on its way
 * (the app's LoadingIndicator).
 */
export const UNFINISHED = '[aria-busy="true"], [data-testid="loading"]';

/** What watchActivity keeps of a page's requests, read here without a call into the page. */
export interface Activity {
  /** Milliseconds since a request of the page last started or ended; 0 while one is in flight. */
  requestsStillFor(): number;
}

/**
 * Watches the page for what makes a screen unfinished: requests in flight (lazy chunks, data)
 * and changes to the DOM (a response rendering, a route swapping in). The DOM is watched from
 * before the app's first script, on every document the page loads.
 */
export async function watchActivity(page: Page): Promise<Activity> {
  let inFlight = 0;
  let lastRequest = Date.now();
  const started = () => {
    inFlight += 1;
    lastRequest = Date.now();
  };
  const ended = () => {
    inFlight -= 1;
    lastRequest = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  await page.addInitScript(() => {
    const state = window as unknown as { e2eLastDomChange: number };
    state.e2eLastDomChange = performance.now();
    new MutationObserver(() => (state.e2eLastDomChange = performance.now())).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return { requestsStillFor: () => (inFlight > 0 ? 0 : Date.now() - lastRequest) };
}

/**
 * Resolves once the screen has finished: no request in flight for STILL_MS, and on the page
 * nothing unfinished and no DOM change for STILL_MS. The page's side is one call that polls
 * in the page: looked at from here every 50 ms, a screen cost some ten calls, each a step of
 * the test reported to the runner, and the test workers' CPU in a sweep was mostly that.
 */
async function settled(page: Page, url: string, activity: Activity, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const left = deadline - Date.now();
    const domStill = await page
      .waitForFunction(
        ({ unfinished, still }) => !document.querySelector(unfinished) && performance.now() - (window as unknown as { e2eLastDomChange: number }).e2eLastDomChange >= still,
        { unfinished: UNFINISHED, still: STILL_MS },
        { polling: 50, timeout: Math.max(left, 1) },
      )
      .then(
        () => true,
        (error: unknown) => {
          // Only the time running out means unsettled; a closed page says so itself.
          if (error instanceof errors.TimeoutError) return false;
          throw error;
        },
      );
    const requestsStill = activity.requestsStillFor();
    if (domStill && requestsStill >= STILL_MS) return;
    if (!domStill || Date.now() >= deadline) throw new Error(`${url} did not settle with its content loaded in ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, requestsStill === 0 ? 50 : STILL_MS - requestsStill));
  }
}

/**
 * Opens a screen and waits until it is finished (settled): its code and data loaded and
 * rendered, no busy region and no loading indicator left, then still for STILL_MS.
 * (`networkidle` fires once per document: after a history navigation it waited for nothing,
 * and a fixed 250 ms pause stood in for the data.) With motion reduced (the spec's test.use,
 * and the theme's respectReducedMotion) nothing is mid-fade when it is measured. After the
 * first, screens open the way a link does (history + popstate, which the router follows): no
 * reload of the app for each. `timeout`: how long it may take to settle (10 s unless given).
 */
export async function open(page: Page, url: string, activity: Activity, timeout = 10_000): Promise<void> {
  const target = new URL(url);
  const current = page.url() ? new URL(page.url()) : null;
  if (current?.origin === target.origin) {
    // The entry in React Router's shape (its index after the current one, as its own navigate
    // writes it): the router's history drops a pop whose entry has no index, and the page would
    // stay on the screen before under the new address.
    await page.evaluate((path) => {
      const index = (history.state as { idx?: number } | null)?.idx ?? 0;
      history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: index + 1 }, '', path);
      dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    }, `${target.pathname}${target.search}`);
  } else {
    await page.goto(url);
  }
  await settled(page, url, activity, timeout);
  await expect(page.locator('#root')).not.toBeEmpty();
}
