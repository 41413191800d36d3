import { afterEach, describe, expect, it, vi } from 'vitest';
import { DISPLAY_NAME_COOKIE } from '@portal/contracts';
import { cookieDeletions, readCookie, setCookieDomain, writeCookie } from './cookies';
import { clearSession, currentUser, peekSessionUser, setSessionUser, setSignOutNavigator } from './session';

afterEach(() => {
  setSessionUser(undefined);
  setSignOutNavigator(() => {});
});

describe('clearSession', () => {
  it('signs out here: no user, no display-name cookie, and off to /login/explore', async () => {
    const navigate = vi.fn();
    setSignOutNavigator(navigate);
    setSessionUser({ full_name: 'Ada' });
    writeCookie(DISPLAY_NAME_COOKIE, 'Ada');

    clearSession();

    expect(peekSessionUser()).toBeNull();
    expect(await currentUser()).toBeNull();
    expect(readCookie(DISPLAY_NAME_COOKIE)).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith('/login/explore');
  });

  it("an expired session (the API's 401) goes to the root instead", () => {
    const navigate = vi.fn();
    setSignOutNavigator(navigate);
    setSessionUser({ full_name: 'Ada' });
    writeCookie(DISPLAY_NAME_COOKIE, 'Ada');
    clearSession('expired');
    expect(readCookie(DISPLAY_NAME_COOKIE)).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('does not move someone who was not signed in', () => {
    const navigate = vi.fn();
    setSignOutNavigator(navigate);
    setSessionUser(null);
    clearSession();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('clearSession with a cookie domain (COOKIE_DOMAIN)', () => {
  afterEach(() => setCookieDomain(undefined));

  it('deletes the display-name cookie the server wrote for the shared domain', () => {
    const domain = location.hostname;
    document.cookie = `${DISPLAY_NAME_COOKIE}=Ada; path=/; domain=${domain}`;
    setSessionUser({ full_name: 'Ada' });
    setCookieDomain(domain);
    clearSession();
    expect(readCookie(DISPLAY_NAME_COOKIE)).toBeUndefined();
  });

  it('names the domain in the deletion (a domain cookie survives one that does not)', () => {
    expect(cookieDeletions(DISPLAY_NAME_COOKIE)).toHaveLength(1);
    setCookieDomain('example.test');
    expect(cookieDeletions(DISPLAY_NAME_COOKIE)).toEqual([expect.not.stringContaining('domain='), expect.stringContaining('; domain=example.test')]);
  });
});
