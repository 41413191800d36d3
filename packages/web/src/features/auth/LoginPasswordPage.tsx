import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { CaptchaPrompt } from '../../components/captcha/CaptchaPrompt';
import { CaptchaError, isCaptchaRefusal, type CaptchaHandle } from '../../components/captcha/types';
import { LightField, LightForm, LightSubmit } from './LightField';
import { PageHeader } from '../../components/PageHeader';
import { ApiError, errorText, retryAfterSeconds } from '../../lib/api';
import { recalledIdentifier, stateValue } from '../../lib/flow-storage';
import { useCountdown } from '../../lib/use-countdown';
import { useForm } from '../../lib/use-form';
import { password } from '../../lib/validators';
import { signIn } from './api';
import classes from './LoginPasswordPage.module.css';
import { useSignInResult } from './use-sign-in-result';

// Only after the server asks for them: the captcha after repeated failures, the resend
// form for an account never activated.
const ResendActivation = lazy(async () => ({ default: (await import('../../components/ResendActivation')).ResendActivation }));

type Failure = { kind: 'api'; error: ApiError } | { kind: 'captcha'; error: CaptchaError };

const looksLikeEmail = (value: string) => value.includes('@');

/**
 * /login/password: the second sign-in step. The identifier comes from the first step
 * (router state, else this tab's storage); without one, back to the first step. After a
 * sign-in the browser reloads where `next`, the entry's return URL or home says.
 */
export function LoginPasswordPage() {
  const { t } = useTranslation();
  const { search, state } = useLocation();
  const identifier = stateValue(state, 'identifier') ?? recalledIdentifier();
  const form = useForm({ password: '' }, () => ({ password }));
  const captcha = useRef<CaptchaHandle>(null);
  const [captchaShown, setCaptchaShown] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [wait, startWait] = useCountdown();
  const result = useSignInResult();

  const navigate = useNavigate();

  // The 429 message counts down with the wait, and goes when it is over.
  useEffect(() => {
    if (wait === 0 && failure?.kind === 'api' && failure.error.status === 429) setFailure(null);
  }, [wait, failure]);

  // No identifier (opened directly): back to its first step. An effect, not react-router's
  // <Navigate>, which only this page used and which then stays out of the entry chunk.
  useEffect(() => {
    if (!identifier) void navigate(`${paths.login}${search}`, { replace: true });
  }, [identifier, navigate, search]);

  if (!identifier) return null;

  if (result.secondStep) return result.secondStep;

  const submit = async () => {
    if (pending || result.done || wait > 0 || !form.check()) return;
    setPending(true);
    setFailure(null);
    try {
      const answer = captchaShown ? await captcha.current?.token() : undefined;
      await result.accept(await signIn({ email: identifier, password: form.values.password, captcha: answer }));
    } catch (error) {
      captcha.current?.reset();
      if (result.offerRestore(error)) return;
      if (error instanceof CaptchaError) setFailure({ kind: 'captcha', error });
      else if (error instanceof ApiError) {
        if (error.details?.captcha_required === true) setCaptchaShown(true);
        if (error.status === 429) startWait(retryAfterSeconds(error));
        setFailure({ kind: 'api', error });
      } else throw error;
    } finally {
      setPending(false);
    }
  };

  // Once the check says Verified, a message asking for the captcha is out of date.
  const captchaAnswered = () => setFailure((current) => (current?.kind === 'captcha' || (current && isCaptchaRefusal(current.error)) ? null : current));

  const notActivated = failure?.kind === 'api' && failure.error.code === 'auth.not_activated';
  const ssoRequired = failure?.kind === 'api' && failure.error.code === 'sso.required';
  const message =
    failure?.kind === 'captcha'
      ? t(failure.error.key)
      : failure?.error.status === 429
        ? t('errors.rate_limited', { second: wait })
        : failure
          ? errorText(failure.error)
          : null;

  return (
    <>
      <PageHeader title={t('auth.loginPassword.title')} description={t('auth.loginPassword.description')} />
      <Group gap="xs" mb="md" wrap="nowrap" className={classes.identity}>
        <Text size="sm" c="dimmed" className={classes.label}>
          {t('auth.loginPassword.signingInAs')}
        </Text>
        <Text size="sm" fw={600} truncate data-testid="login-identifier">
          {identifier}
        </Text>
        <Anchor component={Link} to={`${paths.login}${search}`} state={{ identifier }} size="sm" ml="auto" className={classes.label}>
          {t('auth.loginPassword.change')}
        </Anchor>
      </Group>
      <LightForm onSubmit={submit}>
        {/* For password managers: the account this password belongs to (hidden: no room taken in the stack). */}
        <input type="text" name="username" autoComplete="username" value={identifier} readOnly hidden />
        <LightField
          label={t('auth.loginPassword.passwordLabel')}
          type="password"
          name="password"
          autoComplete="current-password"
          autoFocus
          {...form.text('password')}
        />
        {captchaShown && <CaptchaPrompt ref={captcha} hint={t('auth.loginPassword.captchaHint')} action="login" onAnswer={captchaAnswered} />}
        {message && (
          <div className={classes.alert} role="alert" data-testid="login-error">
            {message}
          </div>
        )}
        <LightSubmit loading={pending || result.done} disabled={wait > 0}>
          {t('auth.loginPassword.submit')}
        </LightSubmit>
      </LightForm>
      {ssoRequired && (
        <Anchor component={Link} to={`${paths.loginSso}${search}`} state={{ identifier }} size="sm" mt="md" display="inline-block" data-testid="use-sso">
          {t('auth.loginPassword.useSso')}
        </Anchor>
      )}
      {notActivated && (
        <Stack gap="xs" mt="md" data-testid="not-activated">
          <Text size="sm">{t('auth.loginPassword.activationHelp')}</Text>
          <Suspense fallback={null}>
            <ResendActivation email={looksLikeEmail(identifier) ? identifier : undefined} />
          </Suspense>
        </Stack>
      )}
      {result.restoreElement}
      <Anchor component={Link} to={`${paths.forgot}${search}`} state={{ identifier }} size="sm" mt="lg" display="inline-block">
        {t('auth.loginPassword.forgotPassword')}
      </Anchor>
    </>
  );
}
