import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MfaChallengeResponse, TokenResponse } from '@portal/contracts';
import { LightButton } from './LightField';
import { isCancelledCeremony, passkeysSupported } from '../../components/passkey/support';
import { loadSecurityCatalogue } from '../../lib/i18n';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { completeSignIn, signInTarget } from '../../lib/sign-in';
import { isMfaChallenge } from './api';
import { cancelPasskeyCeremony, passkeyAuthOptions, signInWithPasskey } from './passkey-sign-in';
import { usePasskeyAutofill } from './usePasskeyAutofill';
import { useRestoreOffer } from './use-restore-offer';

/** The session cookie is set: the app reloads at this sign-in page's return target. */
function useCompleteHere(): () => Promise<void> {
  const { search } = useLocation();
  const { allowedRedirectOrigins } = useRuntimeConfig();
  return () => completeSignIn(signInTarget(search, allowedRedirectOrigins));
}

/**
 * What the passkey sign-in needs from the page around it: the answer's two outcomes. A
 * session reloads the app at the return target; a challenge (two-step on, passkey without
 * user verification) is for the page to show its second-factor step.
 */
export function usePasskeyFinish(onChallenge: (challenge: MfaChallengeResponse) => void): (answer: TokenResponse | MfaChallengeResponse) => Promise<void> {
  const complete = useCompleteHere();
  return async (answer) => {
    if (isMfaChallenge(answer)) onChallenge(answer);
    else await complete();
  };
}

type PasskeyErrors = typeof import('../../components/passkey/passkey-errors');

/**
 * A failed passkey sign-in, for the page to say: the wording (components/passkey/passkey-errors
 * with the `security` catalogue part) loads only when there is a failure to word.
 */
async function describeFailure(error: unknown): Promise<{ error: unknown; errors: PasskeyErrors }> {
  const [errors] = await Promise.all([import('../../components/passkey/passkey-errors'), loadSecurityCatalogue().catch(() => undefined)]);
  return { error, errors };
}

interface PasskeySignInButtonProps {
  onChallenge(challenge: MfaChallengeResponse): void;
  /**
   * Also offer the passkeys in the identifier input's autofill (the input must carry
   * `autocomplete="username webauthn"`). On by default.
   */
  autofill?: boolean;
}

/**
 * 'Sign in with a passkey' on /login: the browser's passkey prompt for this site's
 * discoverable credentials, and (conditional mediation) the same passkeys in the
 * identifier's autofill. Hidden where the browser has no WebAuthn. Its label is in the
 * public catalogue part; the ceremony code and the failure texts load when needed.
 */
export function PasskeySignInButton({ onChallenge, autofill = true }: PasskeySignInButtonProps) {
  const { t } = useTranslation();
  const finish = usePasskeyFinish(onChallenge);
  // The restore offer (403 account.deletion_pending) is rare: its code loads when it is needed.
  const restore = useRestoreOffer(useCompleteHere());
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown; errors: PasskeyErrors } | null>(null);
  const [round, setRound] = useState(0);
  const supported = passkeysSupported();

  const fail = (error: unknown) => {
    if (restore.offer(error)) return;
    void describeFailure(error).then(setFailure, () => undefined);
  };

  usePasskeyAutofill(
    supported && autofill && !pending,
    {
      onAnswer: (answer) => void finish(answer),
      onError: fail,
    },
    round,
  );

  if (!supported) return null;

  const start = async () => {
    if (pending) return;
    cancelPasskeyCeremony(); // the autofill request waiting in the input
    setPending(true);
    setFailure(null);
    try {
      const answer = await signInWithPasskey(await passkeyAuthOptions());
      await finish(answer);
      if (isMfaChallenge(answer)) setPending(false);
    } catch (error) {
      if (!isCancelledCeremony(error)) fail(error);
      setPending(false);
      setRound((current) => current + 1);
    }
  };

  return (
    <Stack gap={6}>
      <LightButton loading={pending} onClick={() => void start()} data-testid="passkey-sign-in">
        {t('auth.login.passkeySignIn')}
      </LightButton>
      {failure !== null && (
        <Text size="sm" c="red.7" role="alert" data-testid="passkey-error">
          {failure.errors.passkeyErrorText(failure.error, 'auth')}
        </Text>
      )}
      {restore.element}
    </Stack>
  );
}
