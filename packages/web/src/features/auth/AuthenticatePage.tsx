import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, safeRedirect } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { readEntryParam } from '../../lib/entry-params';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { useCurrentService } from '../../lib/service';

/** The OAuth values of the entry that make an authorization request (the spec's OAuth client values). */
const AUTHORIZATION_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/**
 * Where the hand-off to a product goes: with the entry's OAuth client values, the provider's
 * `/o/authorize` (the product then receives a code, never a token; the provider checks the
 * client and its redirect URI); else the entry's SERVICE_URL / REDIRECT_URL on an allowed
 * origin; else home.
 */
export function handOffTarget(search: string, allowedOrigins: readonly string[]): string {
  const values = AUTHORIZATION_PARAMS.map((name) => [name, readEntryParam(name, search)] as const).filter(([, value]) => value);
  if (values.some(([name]) => name === 'client_id') && values.some(([name]) => name === 'redirect_uri')) {
    return `${paths.oauthAuthorize}?${new URLSearchParams(values as Array<[string, string]>).toString()}`;
  }
  for (const name of ['REDIRECT_URL', 'SERVICE_URL'] as const) {
    const target = safeRedirect(readEntryParam(name, search), allowedOrigins, location.origin);
    if (target) return target;
  }
  return paths.home;
}

/** /authenticate: passes a signed-in session on to the service named by the entry. */
export function AuthenticatePage() {
  const { t } = useTranslation();
  const service = useCurrentService().entry.name;
  const { search } = useLocation();
  const { allowedRedirectOrigins } = useRuntimeConfig();
  useEffect(() => {
    const target = handOffTarget(search, allowedRedirectOrigins);
    if (target !== paths.home) location.assign(target);
  }, [search, allowedRedirectOrigins]);
  return <PageHeader title={t('auth.authenticate.title', { service })} description={t('auth.authenticate.description', { service })} />;
}
