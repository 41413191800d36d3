import { afterEach, describe, expect, it } from 'vitest';
import { deleteCookie, writeCookie } from './cookies';
import { recalledIdentifier, rememberIdentifier } from './flow-storage';
import { appState, setBusy } from './app-state';
import { completeSignIn, isAppLink, signInTarget } from './sign-in';
import { fakeApi } from '../test/fake-api';

const origin = 'https://id.test';
const allowed = ['https://vault.test', 'https://app.test'];

afterEach(() => {
  deleteCookie('REDIRECT_URL');
  deleteCookie('SERVICE_URL');
});

describe('signInTarget', () => {
  it('follows `next` when it is a path on this site (the OAuth authorization, a signed-in page)', () => {
    expect(signInTarget('?next=%2Fo%2Fauthorize%3Fclient_id%3Dabc', allowed, origin)).toBe('/o/authorize?client_id=abc');
    expect(signInTarget('?next=%2Fsecurity', allowed, origin)).toBe('/security');
  });

  it('never follows `next` off the site', () => {
    expect(signInTarget('?next=https%3A%2F%2Fvault.test%2Fx', allowed, origin)).toBe('/');
    expect(signInTarget('?next=%2F%2Fevil.test', allowed, origin)).toBe('/');
  });

  it('else the entry REDIRECT_URL or SERVICE_URL (query or cookie) on an allowed origin', () => {
    expect(signInTarget('?REDIRECT_URL=https%3A%2F%2Fvault.test%2Fhome', allowed, origin)).toBe('https://vault.test/home');
    writeCookie('SERVICE_URL', 'https://app.test/start');
    expect(signInTarget('', allowed, origin)).toBe('https://app.test/start');
    writeCookie('REDIRECT_URL', 'https://evil.test/');
    expect(signInTarget('', allowed, origin)).toBe('https://app.test/start');
  });

  it('else home', () => {
    expect(signInTarget('', allowed, origin)).toBe('/');
  });
});

describe('completeSignIn', () => {
  it('pings last-active, forgets the identifier, then reloads at the target', async () => {
    const server = fakeApi();
    server.on('POST /sso/me/last_active', { status: 204 });
    rememberIdentifier('ada@example.com');
    const visited: string[] = [];
    await completeSignIn('/security', (url) => visited.push(url));
    expect(server.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /sso/me/last_active']);
    expect(visited).toEqual(['/security']);
    expect(recalledIdentifier()).toBe('');
  });

  it('turns the full-screen busy loader on for the hand-off, with the desktop app link when the target is an app', async () => {
    const server = fakeApi();
    server.on('POST /sso/me/last_active', { status: 204 });
    await completeSignIn('/security', () => undefined);
    expect(appState.get()).toMatchObject({ busy: true, busyOptions: {} });
    await completeSignIn('locker://signed-in?x=1', () => undefined);
    expect(appState.get()).toMatchObject({ busy: true, busyOptions: { pendingDesktopApp: 'locker://signed-in?x=1' } });
    setBusy(false);
    expect(isAppLink('https://vault.test/')).toBe(false);
  });

  it('reloads even when the ping fails', async () => {
    const server = fakeApi();
    server.on('POST /sso/me/last_active', { status: 500 });
    const visited: string[] = [];
    await completeSignIn('/', (url) => visited.push(url));
    expect(visited).toEqual(['/']);
    expect(server.toasts).toEqual([]);
  });
});
