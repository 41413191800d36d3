import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appState } from '../../lib/app-state';
import { fakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { appTargetOf } from './CallbackAppPage';

const assign = vi.fn();

beforeEach(() => {
  fakeApi();
  assign.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('appTargetOf', () => {
  it("takes only a native app's private scheme from the fragment", () => {
    expect(appTargetOf('#to=io.locker.desktop%3A%2Fcallback%3Fcode%3Dabc')).toBe('io.locker.desktop:/callback?code=abc');
    for (const hash of ['', '#to=', '#to=https%3A%2F%2Fevil.example%2F', '#to=javascript%3Aalert(1)', '#to=data%3Atext%2Fhtml%2Cx', '#to=locker%3A%2F%2Fx', '#other=io.x%3A%2F'])
      expect(appTargetOf(hash), hash).toBeNull();
  });
});

describe('/callback-app', () => {
  it('hands the answer to the app, forgets it in the address bar and offers the link in the busy loader', async () => {
    window.history.replaceState(null, '', '/callback-app#to=net.example.desktop%3A%2Fcallback%3Fcode%3Dc0de%26state%3Ds1');
    vi.stubGlobal('location', { assign });
    renderAt('/callback-app#to=net.example.desktop%3A%2Fcallback%3Fcode%3Dc0de%26state%3Ds1');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('net.example.desktop:/callback?code=c0de&state=s1'));
    expect(appState.get().busyOptions.pendingDesktopApp).toBe('net.example.desktop:/callback?code=c0de&state=s1');
    vi.unstubAllGlobals();
    expect(window.location.pathname).toBe('/callback-app');
    expect(window.location.hash).toBe('');
  });

  it('refuses anything that is not an app', async () => {
    window.history.replaceState(null, '', '/callback-app#to=https%3A%2F%2Fevil.example%2F');
    vi.stubGlobal('location', { assign });
    renderAt('/callback-app#to=https%3A%2F%2Fevil.example%2F');
    expect((await screen.findByTestId('callback-app-error')).textContent).toContain('This link does not lead to an app');
    expect(assign).not.toHaveBeenCalled();
  });
});
