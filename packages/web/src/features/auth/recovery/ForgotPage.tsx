import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, RESET_LINK_TTL_SECONDS, VERIFICATION_CODE_LENGTH } from '@portal/contracts';
import { CaptchaPrompt } from '../../../components/captcha/CaptchaPrompt';
import { CaptchaError, isCaptchaRefusal } from '../../../components/captcha/types';
import { useCaptchaSubmit } from '../../../components/captcha/use-captcha-submit';
import { OtpInput } from '../../../components/form/OtpInput';
import { PageHeader } from '../../../components/PageHeader';
import { RESEND_COOLDOWN_SECONDS } from '../../../components/ResendActivation';
import { ApiError, errorText, notify } from '../../../lib/api';
import { recalledIdentifier, rememberIdentifier, stateValue } from '../../../lib/flow-storage';
import { useForm } from '../../../lib/use-form';
import { email as emailRule, identifier as identifierRule, recoveryVerificationCode } from '../../../lib/validators';
import { verifyRecoveryCode, verifyRecoveryEmail } from './api';
import { NewPasswordForm } from './NewPasswordForm';
import { ResendCodeButton, useResendCode } from '../ResendCode';
import { addressTyping } from '../../../lib/address-input';

type Step = 'identify' | 'email' | 'code' | 'password';

/** A step's own heading, under the page's. */
function StepHeader({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap={4}>
      <Title order={2} fz="h3">
        {title}
      </Title>
      <Text c="dimmed" size="sm">
        {description}
      </Text>
    </Stack>
  );
}
/** A step's end: back to the step before, and on. */
function StepButtons({ onBack, backLabel, submitLabel, pending }: { onBack(): void; backLabel: string; submitLabel: string; pending: boolean }) {
  return (
    <Group justify="space-between">
      <Button variant="default" onClick={onBack}>
        {backLabel}
      </Button>
      <Button type="submit" loading={pending}>
        {submitLabel}
      </Button>
    </Group>
  );
}

const steps: Step[] = ['identify', 'email', 'code', 'password'];

/**
 * /forgot: password recovery. 1. the account (email or username) and the way to receive a
 * code (email, the only one for now); 2. the full recovery email, checked by the server,
 * which mails a 6-digit code and a link; 3. the code; 4. the new password.
 */
export function ForgotPage() {
  const { t } = useTranslation();
  const { search, state } = useLocation();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('identify');
  const [identifier, setIdentifier] = useState(() => stateValue(state, 'identifier') ?? recalledIdentifier());
  const [recoveryEmail, setRecoveryEmail] = useState('');
  const [resetToken, setResetToken] = useState('');

  /** A step's onDone: keep what it found out, and go on to the next step. */
  const keepThenGo = (keep: (value: string) => void, next: Step) => (value: string) => {
    keep(value);
    setStep(next);
  };

  const finish = () => {
    notify('success', t('auth.recovery.forgot.done'));
    rememberIdentifier(identifier);
    void navigate(`${paths.login}${search}`, { state: { identifier } });
  };

  return (
    <>
      <PageHeader title={t('auth.recovery.forgot.title')} description={t('auth.recovery.forgot.description')} />
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb="xs" data-testid="forgot-step">
        {t('auth.recovery.forgot.step', { current: steps.indexOf(step) + 1, total: steps.length })}
      </Text>
      {step === 'identify' && (
        <IdentifyStep
          initial={identifier}
          onDone={keepThenGo(setIdentifier, 'email')}
        />
      )}
      {step === 'email' && (
        <EmailStep
          identifier={identifier}
          onBack={() => setStep('identify')}
          onDone={keepThenGo(setRecoveryEmail, 'code')}
        />
      )}
      {step === 'code' && (
        <CodeStep
          identifier={identifier}
          email={recoveryEmail}
          onBack={() => setStep('email')}
          onDone={keepThenGo(setResetToken, 'password')}
        />
      )}
      {step === 'password' && (
        <Stack gap="md">
          <StepHeader title={t('auth.recovery.forgot.newPasswordTitle')} description={t('auth.recovery.forgot.newPasswordDescription')} />
          <NewPasswordForm token={resetToken} userInputs={[identifier, recoveryEmail]} onDone={finish} onInvalid={() => setStep('code')} />
        </Stack>
      )}
      <Anchor component={Link} to={`${paths.login}${search}`} size="sm" mt="lg" display="inline-block">
        {t('auth.backToLogin')}
      </Anchor>
    </>
  );
}

function IdentifyStep({ initial, onDone }: { initial: string; onDone(identifier: string): void }) {
  const { t } = useTranslation();
  const form = useForm({ identifier: initial }, () => ({ identifier: identifierRule }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.check()) onDone(form.values.identifier.trim());
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('auth.recovery.forgot.identifierLabel')}
          name="username"
          autoComplete="username"
          {...addressTyping}
          autoFocus
          {...form.text('identifier')}
        />
        <Radio.Group label={t('auth.recovery.forgot.methodLabel')} value="email" readOnly>
          <Radio
            mt="xs"
            value="email"
            label={t('auth.recovery.forgot.methodEmail')}
            description={t('auth.recovery.forgot.methodEmailHint', { length: VERIFICATION_CODE_LENGTH })}
            readOnly
          />
        </Radio.Group>
        <Button type="submit" fullWidth>
          {t('auth.recovery.forgot.continue')}
        </Button>
      </Stack>
    </form>
  );
}

function EmailStep({ identifier, onBack, onDone }: { identifier: string; onBack(): void; onDone(email: string): void }) {
  const { t } = useTranslation();
  const form = useForm({ email: identifier.includes('@') ? identifier : '' }, () => ({ email: emailRule }));
  const { captcha, pending, setPending, failure, setFailure, captchaFailure, setCaptchaFailure, start } = useCaptchaSubmit<ApiError, CaptchaError>();
  const [captchaShown, setCaptchaShown] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending || !form.check()) return;
    start();
    try {
      const address = form.values.email.trim();
      const answer = captchaShown ? await captcha.current?.token() : undefined;
      await verifyRecoveryEmail(identifier, address, answer);
      onDone(address);
    } catch (error) {
      captcha.current?.reset();
      if (error instanceof CaptchaError) setCaptchaFailure(error);
      else if (error instanceof ApiError) {
        if (error.details?.captcha_required === true) setCaptchaShown(true);
        setFailure(error);
      } else throw error;
    } finally {
      setPending(false);
    }
  };

  // Once the check says Verified, a message asking for the captcha is out of date.
  const captchaAnswered = () => {
    setCaptchaFailure(null);
    setFailure((current) => (current && isCaptchaRefusal(current) ? null : current));
  };

  const mismatch = failure?.code === 'auth.recovery_email_mismatch';
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <StepHeader title={t('auth.recovery.forgot.verifyTitle')} description={t('auth.recovery.forgot.verifyDescription', { identifier })} />
        <TextInput
          label={t('auth.recovery.forgot.emailLabel')}
          name="email"
          type="email"
          autoComplete="email"
          {...addressTyping}
          autoFocus
          value={form.values.email}
          onChange={(event) => form.set('email', event.currentTarget.value)}
          error={form.error('email') ?? (failure ? errorText(failure) : captchaFailure ? t(captchaFailure.key) : undefined)}
          description={mismatch ? t('auth.recovery.forgot.mismatchHint') : undefined}
          inputWrapperOrder={['label', 'input', 'error', 'description']}
        />
        {captchaShown && <CaptchaPrompt ref={captcha} hint={t('auth.recovery.forgot.captchaHint')} action="recovery" onAnswer={captchaAnswered} />}
        <StepButtons onBack={onBack} backLabel={t('auth.recovery.forgot.back')} submitLabel={t('auth.recovery.forgot.sendCode')} pending={pending} />
      </Stack>
    </form>
  );
}

function CodeStep({ identifier, email, onBack, onDone }: { identifier: string; email: string; onBack(): void; onDone(token: string): void }) {
  const { t } = useTranslation();
  const form = useForm({ code: '' }, () => ({ code: recoveryVerificationCode }));
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [resent, setResent] = useState(false);
  // The code was just mailed: a new one can be asked for after the server's gap.
  const mail = useResendCode(() => verifyRecoveryEmail(identifier, email), { initialSeconds: RESEND_COOLDOWN_SECONDS, setFailure });

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !form.check()) return;
    setPending(true);
    setFailure(null);
    try {
      const { reset_token } = await verifyRecoveryCode(identifier, form.values.code.trim());
      onDone(reset_token);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(error);
    } finally {
      setPending(false);
    }
  };

  const resend = async () => {
    setResent(false);
    setResent(await mail.resend());
  };

  const error = form.error('code') ?? (failure ? errorText(failure) : undefined);
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <StepHeader
          title={t('auth.recovery.forgot.codeTitle')}
          description={t('auth.recovery.forgot.codeDescription', { length: VERIFICATION_CODE_LENGTH, email, minutes: RESET_LINK_TTL_SECONDS / 60 })}
        />
        <Stack gap={6}>
          <OtpInput
            label={t('auth.recovery.forgot.codeLabel')}
            value={form.values.code}
            onChange={(value) => form.set('code', value)}
            error={error}
            autoFocus
            testId="recovery-code"
          />
          {resent && !failure && (
            <Text size="xs" c="teal.8" role="status">
              {t('auth.recovery.forgot.resent', { email })}
            </Text>
          )}
        </Stack>
        <StepButtons onBack={onBack} backLabel={t('auth.recovery.forgot.back')} submitLabel={t('auth.recovery.forgot.verify')} pending={pending} />
        <div>
          <ResendCodeButton seconds={mail.seconds} onResend={() => void resend()} label={t('auth.recovery.forgot.resend')} waitLabel={t('auth.recovery.forgot.resendIn', { seconds: mail.seconds })} />
        </div>
      </Stack>
    </form>
  );
}
