import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { entryParams, LANG_COOKIE } from '@portal/contracts';
import { appState, setBusy } from '../../lib/app-state';
import { deleteCookie } from '../../lib/cookies';
import { applyLanguage } from '../../lib/language';
import { ada, locationOf, renderAt } from '../../test/render';

afterEach(async () => {
  for (const name of entryParams) deleteCookie(name);
  deleteCookie(LANG_COOKIE);
  setBusy(false);
  await applyLanguage('en');
});

describe('public auth layout', () => {
  it('names the service of the entry and takes its accent', async () => {
    renderAt('/login?SERVICE_SCOPE=safechain');
    expect((await screen.findByTestId('service-name')).textContent).toBe('SafeChain');
    expect(screen.getByTestId('service-name').closest('[data-service-theme]')?.getAttribute('data-service-theme')).toBe('safechain');
    // The service's intro slides load with it (one small chunk per service and language).
    expect(await screen.findByRole('heading', { name: 'Know what you ship' })).toBeTruthy();
  });

  it('shows the inner service of the platform scope', async () => {
    renderAt('/register?SERVICE_SCOPE=whitehub&INNER_SERVICE=vulnscan');
    expect((await screen.findByTestId('service-name')).textContent).toBe('CyStack Vulnerability Scanner');
    expect(screen.getByText('Create your account to scan your websites and servers for vulnerabilities.')).toBeTruthy();
  });

  it("falls back silently to the brand's service for an unknown scope", async () => {
    renderAt('/login?SERVICE_SCOPE=nonsense');
    expect((await screen.findByTestId('service-name')).textContent).toBe('CyStack Platform');
    cleanupAndRender('/login?SERVICE_SCOPE=nonsense', 'locker');
    expect((await screen.findByTestId('service-name')).textContent).toBe('Locker Password Manager');
  });

  it('keeps the entry service while moving between pages', async () => {
    const { router } = renderAt('/login?SERVICE_SCOPE=secret');
    expect((await screen.findByTestId('service-name')).textContent).toBe('Locker Secrets Manager');
    await act(() => router.navigate('/register'));
    expect(locationOf(router)).toBe('/register');
    expect(screen.getByTestId('service-name').textContent).toBe('Locker Secrets Manager');
    expect(await screen.findByText('Your account includes 1 free project.')).toBeTruthy();
  });

  it('links the logo home in the platform brand and to the vault in the locker brand', async () => {
    renderAt('/login');
    expect((await screen.findByTestId('logo-link')).getAttribute('href')).toBe('/');
    cleanupAndRender('/login', 'locker');
    expect((await screen.findByTestId('logo-link')).getAttribute('href')).toBe('https://vault.test/vault');
  });

  it('switches language from the picker', async () => {
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    fireEvent.change(screen.getByTestId('language-picker'), { target: { value: 'vi' } });
    expect(await screen.findByRole('heading', { name: 'Đăng nhập' })).toBeTruthy();
    expect(document.cookie).toContain(`${LANG_COOKIE}=vi`);
  });
});

describe('signed-in shell', () => {
  it('lists the account sections and the security pages', async () => {
    renderAt('/security', { user: ada });
    const nav = await screen.findByRole('navigation', { name: 'Account sections' });
    for (const name of ['Home', 'Account', 'Email', 'Privacy', 'API keys', 'Device activity', 'Two-step verification', 'Passkeys']) {
      expect(within(nav).getByText(name)).toBeTruthy();
    }
    expect(screen.getByRole('heading', { name: 'Security' })).toBeTruthy();
  });

  it('toggles the side bar from the header', async () => {
    renderAt('/', { user: ada });
    const toggle = await screen.findByTestId('sidebar-toggle');
    const before = appState.get().asideOpen;
    fireEvent.click(toggle);
    expect(appState.get().asideOpen).toBe(!before);
    expect(toggle.getAttribute('aria-expanded')).toBe(String(!before));
    fireEvent.click(toggle);
    expect(appState.get().asideOpen).toBe(before);
  });

  it('has separate desktop and mobile logos', async () => {
    renderAt('/', { user: ada });
    const logo = await screen.findByTestId('logo-link');
    const sources = [...logo.querySelectorAll('img')].map((image) => image.getAttribute('src'));
    expect(sources).toEqual(['/brand/platform/logo.svg', '/brand/platform/logo-mark.svg']);
  });
});

describe('busy loader', () => {
  it('covers the page while busy, offering the desktop app link', async () => {
    renderAt('/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByTestId('busy-loader')).toBeNull();
    act(() => setBusy(true, { pendingDesktopApp: 'locker://open' }));
    const loader = await screen.findByTestId('busy-loader'); // its code loads when first needed
    expect(within(loader).getByRole('link', { name: 'Open the desktop app' }).getAttribute('href')).toBe('locker://open');
    act(() => setBusy(false));
    expect(screen.queryByTestId('busy-loader')).toBeNull();
  });
});

function cleanupAndRender(path: string, brand: 'platform' | 'locker') {
  cleanup();
  return renderAt(path, { config: { brand } });
}
