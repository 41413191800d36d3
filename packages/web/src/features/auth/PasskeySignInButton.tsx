import '@mantine/core/styles/Button.css';
import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { MfaChallengeResponse, TokenResponse } from '@portal/contracts';
import { passkeyErrorText } from '../../components/dialogs/passkey-errors';
import { cancelCeremony, CeremonyError, passkeysSupported } from '../../components/passkey/ceremony';
import { useSecurityText } from '../../components/passkey/use-security-text';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { completeSignIn, signInTarget } from '../../lib/sign-in';
import { isMfaChallenge } from './api';
import { passkeyAuthOptions, signInWithPasskey } from './passkey-sign-in';
import { usePasskeyAutofill } from './usePasskeyAutofill';

/**
 * What the passkey sign-in needs from the page around it: the answer's two outcomes. A
 * session reloads the app at the return target; a challenge (two-step on, passkey without
 * user verification) is for the page to show its second-factor step.
 */
export function usePasskeyFinish(onChallenge: (challenge: MfaChallengeResponse) => void): (answer: TokenResponse | MfaChallengeResponse) => Promise<void> {
  const { search } = useLocation();
  const { allowedRedirectOrigins } = useRuntimeConfig();
  return async (answer) => {
    if (isMfaChallenge(answer)) onChallenge(answer);
    else await completeSignIn(signInTarget(search, allowedRedirectOrigins));
  };
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
 * identifier's autofill. Hidden where the browser has no WebAuthn.
 */
export function PasskeySignInButton({ onChallenge, autofill = true }: PasskeySignInButtonProps) {
  const { t } = useTranslation();
  const ready = useSecurityText();
  const finish = usePasskeyFinish(onChallenge);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  const supported = passkeysSupported();

  usePasskeyAutofill(
    supported && autofill && !pending,
    {
      onAnswer: (answer) => void finish(answer),
      onError: (error) => setFailure(error),
    },
    round,
  );

  if (!supported || !ready) return null;

  const start = async () => {
    if (pending) return;
    cancelCeremony(); // the autofill request waiting in the input
    setPending(true);
    setFailure(null);
    try {
      const answer = await signInWithPasskey(await passkeyAuthOptions());
      await finish(answer);
      if (isMfaChallenge(answer)) setPending(false);
    } catch (error) {
      if (!(error instanceof CeremonyError && error.problem === 'cancelled')) setFailure(error);
      setPending(false);
      setRound((current) => current + 1);
    }
  };

  return (
    <Stack gap={6}>
      <Button variant="default" fullWidth loading={pending} onClick={() => void start()} data-testid="passkey-sign-in">
        {t('passkeyUi.signIn')}
      </Button>
      {failure !== null && (
        <Text size="sm" c="red.7" role="alert" data-testid="passkey-error">
          {passkeyErrorText(failure, 'auth')}
        </Text>
      )}
    </Stack>
  );
}
