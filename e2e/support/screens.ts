import { expect, type Page } from '@playwright/test';

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

/**
 * Watches the page for what makes a screen unfinished: requests in flight (lazy chunks, data)
 * and changes to the DOM (a response rendering, a route swapping in). The DOM is watched from
 * before the app's first script, on every document the page loads.
 */
export async function watchActivity(page: Page): Promise<() => Promise<number>> {
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
  // Milliseconds the page has been still, 0 while a request is in flight or something on it is
  // unfinished (a loader that sits still is not the page). One call into the page per look: a
  // screen is looked at every 50 ms until it settles, some 350 screens a run.
  return async () => {
    if (inFlight > 0) return 0;
    const domStill = await page.evaluate(
      (unfinished) => (document.querySelector(unfinished) ? 0 : performance.now() - (window as unknown as { e2eLastDomChange: number }).e2eLastDomChange),
      UNFINISHED,
    );
    return Math.min(domStill, Date.now() - lastRequest);
  };
}

/**
 * Opens a screen and waits until it is finished: its code and data loaded and rendered, no
 * busy region and no loading indicator left, then still for STILL_MS. (`networkidle` fires once per document: after a
 * history navigation it waited for nothing, and a fixed 250 ms pause stood in for the data.)
 * With motion reduced (the spec's test.use, and the theme's respectReducedMotion) nothing is
 * mid-fade when it is measured. After the first, screens open the way a link does
 * (history + popstate, which the router follows): no reload of the app for each. `timeout`: how
 * long it may take to settle (the expect timeout unless given).
 */
export async function open(page: Page, url: string, stillFor: () => Promise<number>, timeout?: number): Promise<void> {
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
  await expect.poll(stillFor, { message: `${url} settles with its content loaded`, intervals: [50], timeout }).toBeGreaterThanOrEqual(STILL_MS);
  await expect(page.locator('#root')).not.toBeEmpty();
}
