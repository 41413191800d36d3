import { useEffect, useState } from 'react';
import { Anchor } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { companySsoEndpoints, paths } from '@portal/contracts';
import { ApiError, call, errorText } from '../../lib/api';
import { oncePerToken } from '../../lib/once-per-token';
import { recalledSocialSearch } from '../../lib/social';
import { ProviderReturnView } from './ProviderReturnView';
import { useSignInResult } from './use-sign-in-result';

/** Refusals the SAML ACS sends back in the address (codes only, never details). */
const ACS_ERRORS = new Set(['sso.response_invalid', 'sso.identifier_invalid']);

/** The IdP's answer, read once: a code (or handoff) is single use, even when React runs the effect twice. */
const finish = oncePerToken(async (query: string) => {
  const params = new URLSearchParams(query);
  const error = params.get('error');
  if (error) return { refused: ACS_ERRORS.has(error) ? error : 'something_went_wrong' };
  const handoff = params.get('handoff');
  const code = params.get('code');
  const state = params.get('state');
  const iss = params.get('iss');
  const body = handoff ? { handoff } : code && state ? { code, state, ...(iss ? { iss } : {}) } : null;
  if (!body) return { refused: 'sso.state_invalid' };
  return { answer: await call<typeof companySsoEndpoints.finish>(companySsoEndpoints.finish, { body }, { handle: [400, 403, 409, 429, 502] }) };
});

/**
 * /sso/redirect: where the company's identity provider sends the browser back (OpenID Connect:
 * code and state; SAML: the one-time code the server's ACS handed over). The server finishes
 * the sign-in: signed in (the page the sign-in started from, or home), the second step, or the
 * deletion-restore offer.
 */
export function SsoRedirectPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [failure, setFailure] = useState<string | null>(null);
  // An existing account the IdP may not link on its own: its owner signs in and confirms on the link page.
  const [linkWaiting, setLinkWaiting] = useState(false);
  const result = useSignInResult({ targetSearch: recalledSocialSearch });

  useEffect(() => {
    let cancelled = false;
    finish(search)
      .then(async (finished) => {
        if (cancelled) return;
        if ('refused' in finished) return setFailure(t(`errors.${finished.refused}` as 'errors.something_went_wrong'));
        return result.accept(finished.answer);
      })
      .catch((error: unknown) => {
        if (cancelled || result.offerRestore(error)) return;
        setLinkWaiting(error instanceof ApiError && error.code === 'sso.link_required');
        setFailure(error instanceof ApiError ? errorText(error) : t('errors.something_went_wrong'));
      });
    return () => {
      cancelled = true;
    };
    // Once per page load: the code in the address is spent by the first call.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (result.secondStep) return result.secondStep;

  return (
    <ProviderReturnView title={t('auth.ssoRedirect.title')} description={t('auth.ssoRedirect.description')} failure={failure} failureTestId="sso-error" restoreElement={result.restoreElement}>
      {linkWaiting && (
        <Anchor component={Link} to={paths.organizationSsoLink} size="sm" data-testid="sso-link-account">
          {t('auth.ssoRedirect.linkAccount')}
        </Anchor>
      )}
      <Anchor component={Link} to={paths.loginSso} size="sm">
        {t('auth.ssoRedirect.tryAgain')}
      </Anchor>
    </ProviderReturnView>
  );
}
