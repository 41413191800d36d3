import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, SOCIAL_PROVIDERS, socialEndpoints, socialProviderIdSchema, type SocialProviderId } from '@portal/contracts';
import { ApiError, call, errorText, notify } from '../../lib/api';
import { oncePerToken } from '../../lib/once-per-token';
import { recalledSocialSearch, rememberSignUpOffer } from '../../lib/social';
import { isMfaChallenge } from './api';
import { ProviderReturnView } from './ProviderReturnView';
import { useSignInResult } from './use-sign-in-result';

/** The provider's answer, read once: a code is single use, even when React runs the effect twice. */
const exchange = oncePerToken(async (query: string) => {
  const params = new URLSearchParams(query);
  const state = params.get('state') ?? '';
  const provider = socialProviderIdSchema.safeParse(state.split('.')[0]);
  const code = params.get('code');
  if (params.get('error') || !provider.success || !code) return { refused: true as const };
  const iss = params.get('iss');
  const answer = await call<typeof socialEndpoints.authorize>(
    socialEndpoints.authorize,
    { params: { provider: provider.data }, body: { code, state, ...(iss ? { iss } : {}) } },
    { handle: [400, 403, 429] },
  );
  return { provider: provider.data, answer };
});

/**
 * /callback: where a social provider sends the browser back. The code goes to the server
 * (POST /_auth/oauth/{provider}/authorize) and its answer leads on: signed in (the page the
 * sign-in started from, or home), the second step, the deletion-restore offer, /create-user
 * for a new person, or the security page when the identity was linked.
 */
export function CallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const result = useSignInResult({ targetSearch: recalledSocialSearch });

  useEffect(() => {
    let cancelled = false;
    exchange(location.search)
      .then(async (exchanged) => {
        if (cancelled) return;
        if ('refused' in exchanged) return setFailure(t('auth.callback.refused'));
        const { answer, provider } = exchanged;
        if (isMfaChallenge(answer) || 'token' in answer) return result.accept(answer);
        if ('signup_required' in answer) {
          rememberSignUpOffer(answer);
          return navigate(paths.createUser, { replace: true });
        }
        notify('success', t('auth.callback.linked', { provider: SOCIAL_PROVIDERS[provider as SocialProviderId].name }));
        return navigate(paths.security, { replace: true });
      })
      .catch((error: unknown) => {
        if (cancelled || result.offerRestore(error)) return;
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
    <ProviderReturnView title={t('auth.callback.title')} description={t('auth.callback.description')} failure={failure} failureTestId="callback-error" restoreElement={result.restoreElement} />
  );
}
