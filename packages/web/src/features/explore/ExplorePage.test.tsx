import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { ada, renderAt } from '../../test/render';

const productLinks = { pwdmanager: 'https://vault.test/vault', safechain: 'https://safechain.example', secret: `${window.location.origin}/secrets` };

describe('/login/explore', () => {
  it('offers a signed-in visitor their account, not a sign-in', async () => {
    renderAt('/login/explore', { user: ada });
    expect(await screen.findByTestId('explore-signed-in')).toBeTruthy();
    expect(screen.getByText('You are signed in as Ada Lovelace.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your account' }).getAttribute('href')).toBe('/');
    expect(screen.queryByTestId('explore-sign-in')).toBeNull();
  });

  it('offers a signed-out visitor a sign-in', async () => {
    renderAt('/login/explore', { user: null });
    expect(await screen.findByTestId('explore-sign-in')).toBeTruthy();
    expect(screen.queryByTestId('explore-signed-in')).toBeNull();
  });

  it("names the brand and opens each product's configured page: another site in a new tab, this one here", async () => {
    renderAt('/login/explore', { config: { brand: 'locker', productLinks } });
    expect(await screen.findByRole('heading', { name: 'Explore Locker products', level: 1 })).toBeTruthy();
    const safechain = within(screen.getByTestId('product-safechain')).getByRole('link', { name: 'Open SafeChain' });
    expect([safechain.getAttribute('href'), safechain.getAttribute('target'), safechain.getAttribute('rel')]).toEqual(['https://safechain.example', '_blank', 'noopener noreferrer']);
    const secrets = within(screen.getByTestId('product-secret')).getByRole('link', { name: 'Open Locker Secrets Manager' });
    expect([secrets.getAttribute('target'), secrets.getAttribute('rel')]).toEqual([null, null]);
    // A product the deployment gives no page shows no button rather than one that does nothing.
    expect(within(screen.getByTestId('product-endpoint')).queryByRole('link')).toBeNull();
  });

  it("links the footer to the brand's website, Terms and Privacy, each in a new tab", async () => {
    renderAt('/login/explore', { config: { brand: 'locker', mainSiteUrl: 'https://locker.test', termsUrl: 'https://locker.test/terms', privacyUrl: 'https://locker.test/privacy' } });
    const site = await screen.findByRole('link', { name: 'Locker website' });
    const terms = screen.getByRole('link', { name: 'Terms of Service' });
    const privacy = screen.getByRole('link', { name: 'Privacy Policy' });
    expect([site, terms, privacy].map((link) => link.getAttribute('href'))).toEqual(['https://locker.test', 'https://locker.test/terms', 'https://locker.test/privacy']);
    for (const link of [site, terms, privacy]) expect([link.getAttribute('target'), link.getAttribute('rel')]).toEqual(['_blank', 'noopener noreferrer']);
  });
});
