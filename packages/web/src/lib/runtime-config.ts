import { brands, isBrandId, RUNTIME_CONFIG_ELEMENT_ID, type RuntimeConfig } from '@portal/contracts';

/**
 * The server embeds the deployment's RuntimeConfig as JSON in the HTML shell. A page
 * without it (a stale cached shell, a misconfigured proxy) still boots on same-origin
 * defaults rather than showing a blank screen; the console says why.
 */
export function readRuntimeConfig(doc: Document = document): RuntimeConfig {
  const element = doc.getElementById(RUNTIME_CONFIG_ELEMENT_ID);
  if (element?.textContent) {
    try {
      const parsed = JSON.parse(element.textContent) as Partial<RuntimeConfig>;
      if (isBrandId(parsed.brand) && typeof parsed.apiBaseUrl === 'string') return { ...fallbackConfig(doc), ...parsed };
    } catch {
      // fall through to the defaults below
    }
  }
  console.warn(`#${RUNTIME_CONFIG_ELEMENT_ID} is missing or invalid; using same-origin defaults`);
  return fallbackConfig(doc);
}

function fallbackConfig(doc: Document): RuntimeConfig {
  const brand = isBrandId(doc.documentElement.dataset.brand) ? doc.documentElement.dataset.brand : 'platform';
  return {
    brand,
    apiBaseUrl: '/v3',
    vaultUrl: '/',
    mainSiteUrl: '/',
    productLinks: {},
    termsUrl: brands[brand].legal.terms,
    privacyUrl: brands[brand].legal.privacy,
    captcha: { provider: 'altcha' },
    dev: false,
    allowedRedirectOrigins: [],
    socialProviders: [],
  };
}
