import { describe, expect, it } from 'vitest';
import { brands, serviceCatalogue } from '@portal/contracts';
import { ConfigError, loadConfig } from './config';
import { runtimeConfigFor } from './platform/brand';

const dev = { NODE_ENV: 'development' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('product, Terms and Privacy links', () => {
  it('gives every product card and both legal links a public page by default, per brand', () => {
    const config = loadConfig(dev);
    for (const brand of [brands.platform, brands.locker]) {
      const runtime = runtimeConfigFor(config, brand);
      // No card without a link: each product of the catalogue has an absolute http(s) URL.
      for (const key of Object.keys(serviceCatalogue)) expect(runtime.productLinks[key], key).toMatch(/^https?:\/\/[^/]+/);
      expect(runtime.termsUrl).toBe(brand.legal.terms);
      expect(runtime.privacyUrl).toBe(brand.legal.privacy);
    }
    expect(runtimeConfigFor(config, brands.platform).termsUrl).toBe('https://cystack.net/terms-of-service');
    expect(runtimeConfigFor(config, brands.locker).privacyUrl).toBe('https://locker.io/privacy');
    // The password manager's card still leads to the vault, the platform's to the main site.
    expect(runtimeConfigFor(config, brands.locker).productLinks.pwdmanager).toBe(config.VAULT_URL);
    expect(runtimeConfigFor(config, brands.platform).productLinks.whitehub).toBe(config.MAIN_SITE_URL);
    // Each brand's footer names its own website.
    expect(runtimeConfigFor(config, brands.locker).mainSiteUrl).toBe('https://locker.io');
    expect(runtimeConfigFor(config, brands.platform).mainSiteUrl).toBe(config.MAIN_SITE_URL);
  });

  it('takes the settings over the defaults', () => {
    const config = loadConfig({
      ...dev,
      PRODUCT_URLS: 'safechain=https://safechain.example/, secret=https://secrets.example',
      TERMS_URL: 'https://example.com/terms',
      PRIVACY_URL: 'https://example.com/privacy',
      LOCKER_TERMS_URL: 'https://locker.example/terms',
      LOCKER_PRIVACY_URL: 'https://locker.example/privacy',
      LOCKER_SITE_URL: 'https://locker.example',
    });
    const platform = runtimeConfigFor(config, brands.platform);
    const locker = runtimeConfigFor(config, brands.locker);
    expect([platform.productLinks.safechain, platform.productLinks.secret]).toEqual(['https://safechain.example/', 'https://secrets.example']);
    expect(platform.productLinks.vulnscan).toBe('https://cystack.net');
    expect([platform.termsUrl, platform.privacyUrl]).toEqual(['https://example.com/terms', 'https://example.com/privacy']);
    expect([locker.termsUrl, locker.privacyUrl, locker.mainSiteUrl]).toEqual(['https://locker.example/terms', 'https://locker.example/privacy', 'https://locker.example']);
  });

  it('leads bug-bounty notifications to BUGBOUNTY_URL first, then PRODUCT_URLS, then the public site', () => {
    expect(runtimeConfigFor(loadConfig(dev), brands.platform).productLinks.bugbounty).toBe('https://whitehub.net');
    expect(runtimeConfigFor(loadConfig({ ...dev, PRODUCT_URLS: 'bugbounty=https://bb.example' }), brands.platform).productLinks.bugbounty).toBe('https://bb.example');
    const both = loadConfig({ ...dev, PRODUCT_URLS: 'bugbounty=https://bb.example', BUGBOUNTY_URL: 'https://bugbounty.example' });
    expect(runtimeConfigFor(both, brands.platform).productLinks.bugbounty).toBe('https://bugbounty.example');
  });

  it('stops the start with the variable and what is wrong, for each bad value', () => {
    expect(problems({ ...dev, TERMS_URL: 'terms-of-service' })).toEqual(['TERMS_URL: must be an absolute http(s) URL']);
    // A link people follow is never a script.
    expect(problems({ ...dev, LOCKER_PRIVACY_URL: 'javascript:alert(1)' })).toEqual(['LOCKER_PRIVACY_URL: must be an absolute http(s) URL']);
    expect(problems({ ...dev, LOCKER_SITE_URL: 'ftp://locker.example' })).toEqual(['LOCKER_SITE_URL: must be an absolute http(s) URL']);
    const [unknown] = problems({ ...dev, PRODUCT_URLS: 'lockr=https://locker.io' });
    expect(unknown).toMatch(/^PRODUCT_URLS: "lockr=https:\/\/locker.io" names no product; write product=url with one of pwdmanager, /);
    expect(problems({ ...dev, PRODUCT_URLS: 'secret=/secrets' })).toEqual([`PRODUCT_URLS: "secret=/secrets": secret's URL must be an absolute http(s) URL`]);
    expect(problems({ ...dev, PRODUCT_URLS: 'https://locker.io' })[0]).toMatch(/names no product/);
    // Every bad variable at once, as the start prints them.
    expect(() => loadConfig({ ...dev, TERMS_URL: 'x', PRIVACY_URL: 'y' })).toThrow(/Invalid configuration:\n {2}- TERMS_URL: .*\n {2}- PRIVACY_URL: /);
  });
});
