import { afterEach, describe, expect, it, vi } from 'vitest';
import { brands, RUNTIME_CONFIG_ELEMENT_ID } from '@portal/contracts';
import { readRuntimeConfig } from './runtime-config';

function shell(brand: string, config?: string): Document {
  const doc = document.implementation.createHTMLDocument('shell');
  doc.documentElement.dataset.brand = brand;
  if (config !== undefined) {
    const element = doc.createElement('script');
    element.id = RUNTIME_CONFIG_ELEMENT_ID;
    element.type = 'application/json';
    element.textContent = config;
    doc.body.append(element);
  }
  return doc;
}

afterEach(() => vi.restoreAllMocks());

describe('readRuntimeConfig: where Terms, Privacy and the products lead', () => {
  it("takes the server's URLs from the shell", () => {
    const config = readRuntimeConfig(
      shell(
        'locker',
        JSON.stringify({ brand: 'locker', apiBaseUrl: '/v3', termsUrl: 'https://t.example/terms', privacyUrl: 'https://t.example/privacy', productLinks: { safechain: 'https://s.example' } }),
      ),
    );
    expect([config.termsUrl, config.privacyUrl, config.productLinks.safechain]).toEqual(['https://t.example/terms', 'https://t.example/privacy', 'https://s.example']);
  });

  it("falls back to the brand's own public Terms and Privacy when the shell has no config, never a 404 of ours", () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const locker = readRuntimeConfig(shell('locker'));
    expect([locker.brand, locker.termsUrl, locker.privacyUrl]).toEqual(['locker', brands.locker.legal.terms, brands.locker.legal.privacy]);
    const platform = readRuntimeConfig(shell('unknown', '{not json'));
    expect([platform.brand, platform.termsUrl, platform.privacyUrl]).toEqual(['platform', 'https://cystack.net/terms-of-service', 'https://cystack.net/privacy']);
  });

  it('keeps the defaults for what an older shell does not carry', () => {
    const config = readRuntimeConfig(shell('platform', JSON.stringify({ brand: 'platform', apiBaseUrl: '/v3' })));
    expect(config.termsUrl).toBe(brands.platform.legal.terms);
  });
});
