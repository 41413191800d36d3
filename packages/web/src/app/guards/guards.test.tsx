import { fireEvent, screen, waitFor } from '@testing-library/react';
import { matchRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRoutes, guardsSendAway } from '../router';
import { setSessionUser } from '../../lib/session';
import { ada, locationOf, renderAt } from '../../test/render';
import { middlewareNames, runMiddleware } from './middleware';

describe('runMiddleware', () => {
  const context = (middleware: string[]) => ({
    url: new URL('https://portal.test/somewhere'),
    matched: [{ middleware }],
    currentUser: async () => null,
  });

  it('resolves names, each once, outermost first', () => {
    expect(middlewareNames([{ middleware: ['maintenance', 'auth'] }, {}, { middleware: ['auth', 'extra'] }])).toEqual([
      'maintenance',
      'auth',
      'extra',
    ]);
  });

  it('fails with a 500 naming an unknown middleware', async () => {
    // Thrown as `data()`, which the error page reads as a status and message (see below).
    const failure = await runMiddleware(context(['auth', 'nope'])).catch((error: unknown) => error);
    expect(failure).toMatchObject({ init: { status: 500 }, data: { message: 'Unknown middleware nope' } });
  });

  it('does not take inherited object properties for guards', async () => {
    await expect(runMiddleware(context(['toString']))).rejects.toMatchObject({ init: { status: 500 } });
  });
});

describe('route guards', () => {
  it('sends a signed-in user away from the login pages, keeping the query', async () => {
    const { router } = renderAt('/login?client_id=abc&scope=openid', { user: ada });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeTruthy();
    expect(locationOf(router)).toBe('/?client_id=abc&scope=openid');
  });

  it.each(['/login/password?x=1', '/register?x=1', '/register/verifying-email?x=1', '/forgot?x=1', '/reset-pwd/token?x=1', '/create-user?x=1'])(
    'treats %s as a page to keep signed-in users from',
    async (path) => {
      const { router } = renderAt(path, { user: ada });
      await waitFor(() => expect(locationOf(router)).toBe('/?x=1'));
    },
  );

  it('lets a signed-in user open /login/explore', async () => {
    const { router } = renderAt('/login/explore', { user: ada });
    expect(await screen.findByRole('heading', { name: 'Explore CyStack products' })).toBeTruthy();
    expect(locationOf(router)).toBe('/login/explore');
  });

  it('lets a signed-in user sign in again when an app asks for it (OIDC prompt=login)', async () => {
    const { router } = renderAt('/login?next=%2Fo%2Finteraction%2Fabc123abc123&prompt=login', { user: ada });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(locationOf(router)).toBe('/login?next=%2Fo%2Finteraction%2Fabc123abc123&prompt=login');
  });

  it('lets a signed-out person reach /login/quick-app, a child of /login (the spec routes), and the signed-in person approve there', async () => {
    const signedOut = renderAt('/login/quick-app?user_code=BCDF-GHJK');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(locationOf(signedOut.router)).toBe('/login/quick-app?user_code=BCDF-GHJK');
    // There the signed-out person signs in first, and comes back with the code.
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in to continue' }));
    await waitFor(() => expect(locationOf(signedOut.router)).toBe(`/login?next=${encodeURIComponent('/login/quick-app?user_code=BCDF-GHJK')}`));
    signedOut.unmount();
    setSessionUser(undefined);
    const signedIn = renderAt('/login/quick-app?user_code=BCDF-GHJK', { user: ada });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(locationOf(signedIn.router)).toBe('/login/quick-app?user_code=BCDF-GHJK');
  });

  it('returns a signed-in user to `next` when it is a path on this site', async () => {
    const { router } = renderAt('/login?next=%2Fsecurity%2Fpassword', { user: ada });
    await waitFor(() => expect(locationOf(router)).toBe('/security/password'));
  });

  it.each(['//evil.test', '/\\evil.test', 'https://evil.test/', 'javascript:alert(1)'])('never follows `next` off the site (%s)', async (next) => {
    const search = `?next=${encodeURIComponent(next)}`;
    const { router } = renderAt(`/login${search}`, { user: ada });
    await waitFor(() => expect(locationOf(router)).toBe(`/${search}`));
  });

  it('sends a signed-out user from the shell to sign-in with the way back', async () => {
    const { router } = renderAt('/security/password?tab=1');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(locationOf(router)).toBe('/login?next=%2Fsecurity%2Fpassword%3Ftab%3D1');
  });

  it('sends a signed-out user from home to plain /login', async () => {
    const { router } = renderAt('/');
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
  });

  it('runs on every navigation, not only the first', async () => {
    const { router } = renderAt('/account', { user: ada });
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeTruthy();
    await router.navigate('/register?plan=business');
    await waitFor(() => expect(locationOf(router)).toBe('/?plan=business'));
  });

  it('redirects /maintenance home', async () => {
    const { router } = renderAt('/maintenance', { user: ada });
    await waitFor(() => expect(locationOf(router)).toBe('/'));
  });

  it('does not ask for the session on pages that do not care about it', async () => {
    const currentUser = vi.fn(async () => null);
    renderAt('/server-error', { currentUser });
    expect(await screen.findByRole('heading', { name: 'Server trouble' })).toBeTruthy();
    expect(currentUser).not.toHaveBeenCalled();
  });

  it('shows an unknown middleware as a 500 on the error page', async () => {
    const routes = [
      {
        handle: { middleware: ['maintenance', 'auth'] },
        children: [{ path: '/broken', handle: { middleware: ['nope'] }, element: <p>broken page</p> }],
      },
    ];
    renderAt('/broken', { routes, currentUser: async () => null });
    expect(await screen.findByText('Unknown middleware nope')).toBeTruthy();
    expect(screen.getByTestId('error-status').textContent).toBe('500');
    expect(screen.queryByText('broken page')).toBeNull();
  });
});

describe('guardsSendAway (what link prefetch skips)', () => {
  const routes = createAppRoutes();
  const sendsAway = (path: string) => {
    const url = new URL(path, 'https://portal.test');
    return guardsSendAway((matchRoutes(routes, url.pathname) ?? []).map((match) => match.route), url);
  };

  // The kept session is module state: forgotten after the test, whatever it asserted.
  afterEach(() => setSessionUser(undefined));

  it('follows the auth guard by the session known now, and says nothing while it is unknown', () => {
    setSessionUser(undefined);
    expect(['/', '/account', '/login', '/register'].map(sendsAway)).toEqual([false, false, false, false]);
    setSessionUser(null);
    expect(['/', '/account', '/login', '/register', '/forgot'].map(sendsAway)).toEqual([true, true, false, false, false]);
    setSessionUser(ada);
    expect(['/', '/account', '/login', '/register', '/login/explore', '/login?prompt=login&next=/account'].map(sendsAway)).toEqual([false, false, true, true, false, false]);
  });
});

describe('catch-all', () => {
  it('shows 404 with the way home', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'This page could not be found' })).toBeTruthy();
    expect(screen.getByTestId('error-status').textContent).toBe('404');
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
  });
});
