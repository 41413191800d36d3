import { afterEach, describe, expect, it, vi } from 'vitest';
import { DISPLAY_NAME_COOKIE } from '@portal/contracts';
import { readCookie, writeCookie } from './cookies';
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

  it('does not move someone who was not signed in', () => {
    const navigate = vi.fn();
    setSignOutNavigator(navigate);
    setSessionUser(null);
    clearSession();
    expect(navigate).not.toHaveBeenCalled();
  });
});
