import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { LINK_PREFETCH_IDLE_MS } from '@portal/contracts';
import { prefetchLinkedRoutes, startLinkPrefetch } from './link-prefetch';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

function table() {
  const forgot = vi.fn(async () => ({}));
  const register = vi.fn(async () => ({}));
  const account = vi.fn(async () => ({}));
  const routes: RouteObject[] = [
    { path: '/forgot', handle: { load: forgot } },
    { path: '/register', children: [{ index: true, handle: { load: register } }] },
    { path: '/account', handle: { load: account } },
  ];
  return { routes, forgot, register, account };
}

describe('link prefetch', () => {
  it("fetches the code of the routes the page links to, each once, and nothing else or off-site", () => {
    const { routes, forgot, register, account } = table();
    document.body.innerHTML = '<a href="/forgot">a</a><a href="/register">b</a><a href="/forgot?x=1">c</a><a href="https://elsewhere.test/account">d</a>';
    expect(prefetchLinkedRoutes(routes)).toBe(2);
    expect(prefetchLinkedRoutes(routes)).toBe(0);
    return Promise.resolve().then(() => {
      expect(forgot).toHaveBeenCalledTimes(1);
      expect(register).toHaveBeenCalledTimes(1);
      expect(account).not.toHaveBeenCalled();
    });
  });

  it('leaves out the pages that would send the visitor elsewhere', async () => {
    const { routes, forgot, account } = table();
    document.body.innerHTML = '<a href="/forgot">a</a><a href="/account">b</a>';
    const sendsAway = vi.fn((matched: RouteObject[], url: URL) => url.pathname === '/account' && matched[0]?.path === '/account');
    expect(prefetchLinkedRoutes(routes, document, sendsAway)).toBe(1);
    await Promise.resolve();
    expect(forgot).toHaveBeenCalledTimes(1);
    expect(account).not.toHaveBeenCalled();
    expect(sendsAway).toHaveBeenCalledTimes(2);
  });

  it(`waits for the browser to be idle, at most ${LINK_PREFETCH_IDLE_MS} ms, after each page change`, async () => {
    vi.useFakeTimers();
    const { routes, account } = table();
    document.body.innerHTML = '<a href="/account">x</a>';
    let notify = () => {};
    const stop = startLinkPrefetch({ routes, subscribe: (listener) => ((notify = listener), () => (notify = () => {})) });
    await vi.advanceTimersByTimeAsync(LINK_PREFETCH_IDLE_MS - 1);
    expect(account).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(account).toHaveBeenCalledTimes(1);
    notify();
    await vi.advanceTimersByTimeAsync(LINK_PREFETCH_IDLE_MS);
    expect(account).toHaveBeenCalledTimes(1); // fetched once
    stop();
  });
});
