import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Alert.css';
import type { FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { passkeyEndpoints, paths } from '@portal/contracts';
import { passkeyErrorText } from '../../../components/passkey/passkey-errors';
import { CeremonyError, passkeysSupported, runRegistration } from '../../../components/passkey/ceremony';
import { useSecurityText } from '../../../components/passkey/use-security-text';
import { ApiError, call, fieldErrors } from '../../../lib/api';
import { rememberSignupEmail } from '../../../lib/flow-storage';
import { useForm } from '../../../lib/use-form';
import { acceptTerms, email, required } from '../../../lib/validators';
import { CaptchaError, isCaptchaRefusal } from '../../../components/captcha/types';
import { useCaptchaSubmit } from '../../../components/captcha/use-captcha-submit';
import { SignUpCaptcha } from '../../../components/captcha/SignUpCaptcha';
import { NameAndEmailFields, TermsCheckbox } from './SignUpFields';

/** POST /sso/users/webauthn/register/options {algorithms, email, full_name, captcha} → creation options (the spec's call list). */
const registerOptions = (body: { email: string; full_name: string; captcha: string | undefined }) =>
  call(passkeyEndpoints.registerOptions, { body: { algorithms: ['es256', 'rs256'], ...body } }, { handle: [400] });
/** POST /sso/users/webauthn/register {response} → 201 {email}: activated by mail like a password sign-up. */
const registerPasskey = (response: object) => call(passkeyEndpoints.register, { body: { response: { ...response } } }, { handle: [400] });

/**
 * 'Sign up with a passkey': full name and email, the browser's passkey prompt, then the
 * activation mail and /register/verifying-email, as after a password sign-up. The account
 * has no password until its owner sets one (/security/password).
 */
export function PasskeySignUpForm({ onUsePassword }: { onUsePassword(): void }) {
  const { t } = useTranslation();
  const ready = useSecurityText();
  const { search } = useLocation();
  const navigate = useNavigate();
  const { captcha, pending, setPending, failure, setFailure, captchaFailure, setCaptchaFailure, start } = useCaptchaSubmit<unknown, CaptchaError | ApiError>();
  const form = useForm({ fullName: '', email: '', terms: false }, () => ({ fullName: required, email, terms: acceptTerms }));
  const { values } = form;

  if (!ready) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending || !form.check()) return;
    start();
    try {
      const address = values.email.trim();
      const captchaAnswer = await captcha.current?.token();
      const options = await registerOptions({ email: address, full_name: values.fullName.trim(), captcha: captchaAnswer });
      const response = await runRegistration(options);
      const answer = await registerPasskey(response);
      rememberSignupEmail(answer.email ?? address);
      void navigate(`${paths.registerVerifyingEmail}${search}`, { state: { email: answer.email ?? address } });
    } catch (error) {
      // A captcha answer is single use: whatever happened, the next try gets a fresh one.
      captcha.current?.reset();
      if (error instanceof CaptchaError || (error instanceof ApiError && isCaptchaRefusal(error))) setCaptchaFailure(error);
      else if (error instanceof ApiError && error.status === 400 && error.details?.fields) {
        const fields = fieldErrors(error);
        form.setServerErrors({ fullName: fields.full_name, email: fields.email });
      } else if (error instanceof CeremonyError || (error instanceof ApiError && error.status === 400)) setFailure(error);
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="passkey-sign-up">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('passkeys.signUpBody')}
        </Text>
        <NameAndEmailFields form={form} labels={{ fullName: t('passkeys.fullName'), email: t('passkeys.email') }} emailAutoComplete="username" />
        <TermsCheckbox form={form} />
        <SignUpCaptcha captchaRef={captcha} failure={captchaFailure} onAnswer={() => setCaptchaFailure(null)} />
        {failure !== null && (
          <Alert color="red" variant="light" role="alert">
            {passkeyErrorText(failure, 'signup')}
          </Alert>
        )}
        <Button type="submit" fullWidth loading={pending} data-testid="passkey-sign-up-submit">
          {t('passkeys.signUpSubmit')}
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onUsePassword}>
          {t('passkeys.usePassword')}
        </Anchor>
      </Stack>
    </form>
  );
}

/** The way in to the passkey sign-up, on /register; nothing where the browser has no WebAuthn. */
export function PasskeySignUpButton({ onClick }: { onClick(): void }) {
  const { t } = useTranslation();
  const ready = useSecurityText();
  if (!ready || !passkeysSupported()) return null;
  return (
    <Button variant="default" fullWidth onClick={onClick} data-testid="passkey-sign-up-start">
      {t('passkeys.signUp')}
    </Button>
  );
}
