import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Button.css';
import { useRef, useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { firstPaintRoutes, paths, VERIFICATION_CODE_LENGTH, type mfaEndpoints, type MfaChallengeResponse } from '@portal/contracts';
import { CaptchaPrompt } from '../../components/captcha/CaptchaPrompt';
import { CaptchaError, isCaptchaRefusal, type CaptchaHandle } from '../../components/captcha/types';
import { OtpInput } from '../../components/form/OtpInput';
import { PageHeader } from '../../components/PageHeader';
import { RESEND_COOLDOWN_SECONDS } from '../../components/ResendActivation';
import { ApiError, call, errorText } from '../../lib/api';
import { useForm } from '../../lib/use-form';
import { password as passwordRule, recoveryCode, verificationCode } from '../../lib/validators';
import { ResendCodeButton, useResendCode } from './ResendCode';
import { useRestoreOffer } from './use-restore-offer';


interface SecondFactorStepProps {
  challenge: MfaChallengeResponse;
  /** The session cookie is set: finish the sign-in. */
  onSignedIn(): Promise<void>;
}

/**
 * The second step of a sign-in when the account has two-step verification: a current code
 * (authenticator app, or mailed for the email method) or one of the recovery codes. After a
 * mailed sign-in code, an account whose second step is email is asked for its password
 * instead (method `password`): one mailbox is not two factors.
 */
export function SecondFactorStep({ challenge, onSignedIn }: SecondFactorStepProps) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  // Once the account's budget of failed second steps is spent, each try needs the captcha (as passwords do).
  const captcha = useRef<CaptchaHandle>(null);
  const [captchaShown, setCaptchaShown] = useState(false);
  const [captchaFailure, setCaptchaFailure] = useState<CaptchaError | null>(null);
  const { seconds, resend } = useResendCode(
    () => call<typeof mfaEndpoints.resendSecondFactor>(firstPaintRoutes.resendSecondFactor, { body: { mfa_token: challenge.mfa_token } }, { handle: [400, 429] }),
    { initialSeconds: challenge.method === 'email' ? RESEND_COOLDOWN_SECONDS : 0, setFailure },
  );
  const restore = useRestoreOffer(onSignedIn);
  const passwordStep = challenge.method === 'password';
  const form = useForm({ code: '', recovery: '', password: '' }, () =>
    useRecovery ? { recovery: recoveryCode } : passwordStep ? { password: passwordRule } : { code: verificationCode },
  );

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !form.check()) return;
    setPending(true);
    setFailure(null);
    setCaptchaFailure(null);
    try {
      const answer = captchaShown ? await captcha.current?.token() : undefined;
      const factor = useRecovery
        ? { recovery_code: form.values.recovery.trim().toUpperCase() }
        : passwordStep
          ? { password: form.values.password }
          : { code: form.values.code.trim() };
      await call<typeof mfaEndpoints.verifySecondFactor>(firstPaintRoutes.verifySecondFactor, { body: { mfa_token: challenge.mfa_token, ...factor, ...(answer ? { captcha: answer } : {}) } }, { handle: [400, 403, 429] });
      await onSignedIn();
    } catch (error) {
      captcha.current?.reset();
      setPending(false);
      if (error instanceof CaptchaError) return setCaptchaFailure(error);
      if (!(error instanceof ApiError)) throw error;
      if (error.details?.captcha_required === true || error.code === 'auth.captcha_required') setCaptchaShown(true);
      if (!restore.offer(error)) setFailure(error);
    }
  };

  // Once the check says Verified, a message asking for the captcha is out of date.
  const captchaAnswered = () => {
    setCaptchaFailure(null);
    setFailure((current) => (current && isCaptchaRefusal(current) ? null : current));
  };

  const expired = failure?.code === 'auth.mfa_token_invalid';
  return (
    <>
      <PageHeader
        title={t('auth.secondFactor.title')}
        description={t(
          passwordStep ? 'auth.secondFactor.passwordDescription' : challenge.method === 'email' ? 'auth.secondFactor.emailDescription' : 'auth.secondFactor.totpDescription',
          { length: VERIFICATION_CODE_LENGTH },
        )}
      />
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {useRecovery ? (
            <TextInput
              label={t('auth.secondFactor.recoveryLabel')}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              autoFocus
              {...form.text('recovery')}
            />
          ) : passwordStep ? (
            <TextInput
              label={t('auth.secondFactor.passwordLabel')}
              type="password"
              name="password"
              autoComplete="current-password"
              autoFocus
              {...form.text('password')}
            />
          ) : (
            <OtpInput
              label={t('auth.secondFactor.codeLabel')}
              value={form.values.code}
              onChange={(value) => form.set('code', value)}
              error={form.error('code')}
              autoFocus
              testId="second-factor-code"
            />
          )}
          {captchaShown && <CaptchaPrompt ref={captcha} hint={t('auth.loginPassword.captchaHint')} action="login" onAnswer={captchaAnswered} />}
          {(failure || captchaFailure) && (
            <Text size="sm" c="red.7" role="alert">
              {captchaFailure ? t(captchaFailure.key) : errorText(failure!)}
            </Text>
          )}
          {expired ? (
            <Button component={Link} to={`${paths.login}${search}`}>
              {t('auth.secondFactor.restart')}
            </Button>
          ) : (
            <Button type="submit" fullWidth loading={pending}>
              {t('auth.secondFactor.submit')}
            </Button>
          )}
          <Stack gap={4} align="flex-start">
            <Anchor component="button" type="button" size="sm" onClick={() => setUseRecovery((current) => !current)}>
              {t(useRecovery ? (passwordStep ? 'auth.secondFactor.usePassword' : 'auth.secondFactor.useCode') : 'auth.secondFactor.useRecovery')}
            </Anchor>
            {challenge.method === 'email' && !useRecovery && (
              <ResendCodeButton seconds={seconds} onResend={() => void resend()} label={t('auth.secondFactor.resend')} waitLabel={t('auth.secondFactor.resendIn', { seconds })} />
            )}
          </Stack>
        </Stack>
      </form>
      {restore.element}
    </>
  );
}
