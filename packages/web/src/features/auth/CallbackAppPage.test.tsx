import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appState } from '../../lib/app-state';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { appTargetOf } from './CallbackAppPage';

const assign = vi.fn();
let api: FakeApi;

beforeEach(() => {
  api = fakeApi();
  api.on('GET /oauth/clients/test-desktop/app-redirects', { status: 200, body: { redirect_uris: ['net.example.desktop:/callback'] } });
  assign.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

const HANDED = '#to=net.example.desktop%3A%2Fcallback%3Fcode%3Dc0de%26state%3Ds1&client_id=test-desktop';

describe('appTargetOf', () => {
  it("takes only a native app's private scheme from the fragment, with the app it is for", () => {
    expect(appTargetOf('#to=io.locker.desktop%3A%2Fcallback%3Fcode%3Dabc&client_id=locker-desktop')).toEqual({ target: 'io.locker.desktop:/callback?code=abc', clientId: 'locker-desktop' });
    for (const hash of ['', '#to=', '#to=io.locker.desktop%3A%2Fcallback', '#to=https%3A%2F%2Fevil.example%2F&client_id=x', '#to=javascript%3Aalert(1)&client_id=x', '#to=data%3Atext%2Fhtml%2Cx&client_id=x', '#to=locker%3A%2F%2Fx&client_id=x', '#other=io.x%3A%2F'])
      expect(appTargetOf(hash), hash).toBeNull();
  });
});

describe('/callback-app', () => {
  it("hands the answer to the app when it is one of the app's registered redirect URIs, forgets it in the address bar and offers the link in the busy loader", async () => {
    window.history.replaceState(null, '', `/callback-app${HANDED}`);
    vi.stubGlobal('location', { assign });
    renderAt(`/callback-app${HANDED}`);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('net.example.desktop:/callback?code=c0de&state=s1'));
    expect(appState.get().busyOptions.pendingDesktopApp).toBe('net.example.desktop:/callback?code=c0de&state=s1');
    vi.unstubAllGlobals();
    expect(window.location.pathname).toBe('/callback-app');
    expect(window.location.hash).toBe('');
  });

  for (const [what, hash] of [
    ['anything that is not an app', '#to=https%3A%2F%2Fevil.example%2F&client_id=test-desktop'],
    ["a scheme the app did not register (another app's, opened by a link)", '#to=com.evil.app%3A%2Fcallback%3Fcode%3Dc0de&client_id=test-desktop'],
    ['a path of the scheme the app did not register', '#to=net.example.desktop%3A%2Fother%3Fx%3D1&client_id=test-desktop'],
    ['an app the server does not know', '#to=net.example.desktop%3A%2Fcallback%3Fcode%3Dc0de&client_id=app_nobody'],
    ['a target without its app', '#to=net.example.desktop%3A%2Fcallback%3Fcode%3Dc0de'],
  ] as const) {
    it(`refuses ${what}`, async () => {
      window.history.replaceState(null, '', `/callback-app${hash}`);
      vi.stubGlobal('location', { assign });
      renderAt(`/callback-app${hash}`);
      expect((await screen.findByTestId('callback-app-error')).textContent).toContain('This link does not lead to an app');
      expect(assign).not.toHaveBeenCalled();
    });
  }
});
