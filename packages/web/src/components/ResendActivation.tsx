import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Button.css';
import { useRef, useState, type FormEvent } from 'react';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { firstPaintRoutes, type authEndpoints } from '@portal/contracts';
import { ApiError, call, errorText, retryAfterSeconds } from '../lib/api';
import { CaptchaField } from './captcha/CaptchaField';
import { CaptchaError, type CaptchaHandle } from './captcha/types';
import { useCountdown } from '../lib/use-countdown';
import { useForm } from '../lib/use-form';
import { email as emailRule } from '../lib/validators';

/** Seconds between two activation mails (the server's own gap between mailed links). */
export const RESEND_COOLDOWN_SECONDS = 30;

interface ResendActivationProps {
  /** The address, when the page knows it; otherwise the visitor types it. */
  email?: string;
  /** Start with the button waiting (a mail has just been sent). */
  initialCooldown?: number;
}

/**
 * "Send the activation mail again": after sign-up, on an expired link, and when a sign-in
 * finds the account not activated. The server answers the same whether or not the address
 * has an account waiting, so the confirmation says "if".
 */
export function ResendActivation({ email: knownEmail, initialCooldown = 0 }: ResendActivationProps) {
  const { t } = useTranslation();
  const [seconds, startCooldown] = useCountdown(initialCooldown);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError | CaptchaError | null>(null);
  // Every resend mails someone: the server asks for a captcha, solved when the button is pressed.
  const captcha = useRef<CaptchaHandle>(null);
  const form = useForm({ email: knownEmail ?? '' }, () => ({ email: emailRule }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending || seconds > 0 || !form.check()) return;
    const address = form.values.email.trim();
    setPending(true);
    setFailure(null);
    try {
      const answer = await captcha.current?.token();
      await call<typeof authEndpoints.resendActivation>(firstPaintRoutes.resendActivation, { body: { email: address, captcha: answer } }, { handle: [400, 429] });
      setSentTo(address);
      startCooldown(RESEND_COOLDOWN_SECONDS);
    } catch (error) {
      if (error instanceof CaptchaError) return setFailure(error);
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 429) startCooldown(retryAfterSeconds(error));
      if (error.status === 400 || error.status === 429) setFailure(error);
    } finally {
      captcha.current?.reset();
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        {!knownEmail && (
          <TextInput
            label={t('auth.activation.emailLabel')}
            type="email"
            autoComplete="email"
            {...form.text('email')}
          />
        )}
        <CaptchaField ref={captcha} action="signup" auto="onfocus" />
        <div>
          <Button type="submit" variant={knownEmail ? 'light' : 'filled'} loading={pending} disabled={seconds > 0}>
            {seconds > 0 ? t('auth.activation.resendIn', { seconds }) : t('auth.activation.resend')}
          </Button>
        </div>
        {sentTo && !failure && (
          <Text size="sm" c="teal.8" role="status">
            {t('auth.activation.sent', { email: sentTo })}
          </Text>
        )}
        {failure && (
          <Text size="sm" c="red.7" role="alert">
            {failure instanceof CaptchaError ? t(failure.key) : errorText(failure)}
          </Text>
        )}
      </Stack>
    </form>
  );
}
