import { useEffect, useState } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { mfaEndpoints, paths, VERIFICATION_CODE_LENGTH } from '@portal/contracts';
import { OtpInput } from '../../components/form/OtpInput';
import { LightField, LightForm, LightSubmit } from './LightField';
import { ResendCodeButton } from './ResendCode';
import { PageHeader } from '../../components/PageHeader';
import { useSecurityText } from '../../components/passkey/use-security-text';
import { RESEND_COOLDOWN_SECONDS } from '../../components/ResendActivation';
import { ApiError, call, errorText, fieldErrors, retryAfterSeconds } from '../../lib/api';
import { recalledIdentifier, stateValue } from '../../lib/flow-storage';
import { useCountdown } from '../../lib/use-countdown';
import { useForm } from '../../lib/use-form';
import { email as emailRule, verificationCode } from '../../lib/validators';
import { useSignInResult } from './use-sign-in-result';
import { addressTyping } from '../../lib/address-input';

/**
 * POST /sso/auth/code/send → {email}: the same answer whether or not the account exists. A
 * 429 is the API client's toast ('Too many requests. Try again in {second} seconds'); the
 * page only counts the wait down on its button.
 */
const sendLoginCode = (email: string) => call(mfaEndpoints.sendLoginCode, { body: { email } }, { handle: [400] });
/** POST /sso/auth/code → {token} (session cookie set) or the second-factor challenge. */
const signInWithCode = (email: string, code: string) =>
  call(mfaEndpoints.signInWithCode, { body: { email, code } }, { handle: [400, 403] });

const looksLikeEmail = (value: string | undefined) => (value && value.includes('@') ? value : '');

/**
 * /login/quick: sign in with a code mailed to the address: the email, 'Send code', the
 * 6-digit code, then the session (or the two-step verification step), the last-active ping
 * and a reload at the safe return target (lib/sign-in.ts).
 */
export function LoginQuickPage() {
  const { t } = useTranslation();
  const ready = useSecurityText();
  const { search, state } = useLocation();
  const form = useForm({ email: looksLikeEmail(stateValue(state, 'identifier') ?? recalledIdentifier() ?? undefined), code: '' }, () =>
    sentTo === null ? { email: emailRule } : { code: verificationCode, email: undefined },
  );
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [wait, startWait] = useCountdown();
  const result = useSignInResult();

  useEffect(() => {
    if (wait === 0 && failure?.status === 429) setFailure(null);
  }, [wait, failure]);

  if (!ready) return null;

  if (result.secondStep) return result.secondStep;

  const send = async () => {
    if (pending || wait > 0) return;
    if (sentTo === null && !form.check()) return;
    const address = sentTo ?? form.values.email.trim();
    setPending(true);
    setFailure(null);
    try {
      await sendLoginCode(address);
      setSentTo(address);
      form.set('code', '');
      startWait(RESEND_COOLDOWN_SECONDS);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 429) startWait(retryAfterSeconds(error));
      else if (error.status === 400) {
        const fields = fieldErrors(error);
        if (fields.email) form.setServerErrors({ email: fields.email });
        else setFailure(error);
      }
    } finally {
      setPending(false);
    }
  };

  const verify = async (code = form.values.code) => {
    if (pending || result.done || sentTo === null) return;
    if (code !== form.values.code) form.set('code', code);
    if (verificationCode(code)) {
      form.check();
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      await result.accept(await signInWithCode(sentTo, code));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!result.offerRestore(error)) setFailure(error);
      form.set('code', '');
    } finally {
      setPending(false);
    }
  };

  if (sentTo === null) {
    return (
      <>
        <PageHeader title={t('auth.emailCode.title')} description={t('auth.emailCode.description', { length: VERIFICATION_CODE_LENGTH })} />
        <LightForm onSubmit={send}>
          <LightField
            label={t('auth.emailCode.emailLabel')}
            type="email"
            name="email"
            autoComplete="username"
            {...addressTyping}
            autoFocus
            {...form.text('email')}
          />
          {failure && (
            <Text size="sm" c="red.7" role="alert">
              {errorText(failure)}
            </Text>
          )}
          <LightSubmit loading={pending} disabled={wait > 0}>
            {wait > 0 ? t('auth.emailCode.resendIn', { seconds: wait }) : t('auth.emailCode.send')}
          </LightSubmit>
        </LightForm>
        <Anchor component={Link} to={`${paths.login}${search}`} size="sm" mt="lg" display="inline-block">
          {t('auth.emailCode.usePassword')}
        </Anchor>
      </>
    );
  }

  return (
    <>
      <PageHeader title={t('auth.emailCode.title')} description={t('auth.emailCode.sentTo', { length: VERIFICATION_CODE_LENGTH, email: sentTo })} />
      <LightForm onSubmit={() => verify()}>
        <OtpInput
          label={t('auth.emailCode.codeLabel')}
          value={form.values.code}
          onChange={(value) => form.set('code', value)}
          onComplete={(value) => void verify(value)}
          error={failure ? errorText(failure) : form.error('code')}
          autoFocus
          name="code"
        />
        <LightSubmit loading={pending || result.done}>{t('auth.emailCode.submit')}</LightSubmit>
        <Stack gap={4} align="flex-start">
          <ResendCodeButton seconds={wait} onResend={() => void send()} label={t('auth.emailCode.resend')} waitLabel={t('auth.emailCode.resendIn', { seconds: wait })} testId="quick-resend" />
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setSentTo(null);
              setFailure(null);
            }}
          >
            {t('auth.emailCode.changeEmail')}
          </Anchor>
        </Stack>
      </LightForm>
      {result.restoreElement}
    </>
  );
}
