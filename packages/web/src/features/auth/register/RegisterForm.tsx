import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Button.css';
import type { FormEvent } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths, type FieldError, type Language } from '@portal/contracts';
import { CaptchaError, isCaptchaRefusal } from '../../../components/captcha/types';
import { useCaptchaSubmit } from '../../../components/captcha/use-captcha-submit';
import { NewPasswordField } from '../../../components/NewPasswordField';
import { ApiError, fieldErrors } from '../../../lib/api';
import { useCurrentService } from '../../../lib/service';
import { rememberSignupEmail } from '../../../lib/flow-storage';
import { useForm } from '../../../lib/use-form';
import { acceptTerms, email, newPassword, required } from '../../../lib/validators';
import { signUp } from './api';
import { SignUpCaptcha } from '../../../components/captcha/SignUpCaptcha';
import { NameAndEmailFields, TermsCheckbox } from './SignUpFields';
import { FailureAlert } from '../../../components/FailureAlert';

/** Server field names (the request body) to this form's fields. */
const serverFields: Record<string, 'fullName' | 'email' | 'password' | 'terms'> = {
  full_name: 'fullName',
  email: 'email',
  password: 'password',
  accept_terms: 'terms',
};

/**
 * The sign-up form: name, email, a new password with its strength, the terms, and the
 * captcha the server always asks for here. The answer is the same whether or not the email
 * already has an account (the mail says which); the next page says where the mail went.
 */
export function RegisterForm({ fixedEmail, beforeSignUp }: { fixedEmail?: string; beforeSignUp?: () => Promise<unknown> } = {}) {
  const { t, i18n } = useTranslation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const service = useCurrentService();
  const { captcha, pending, setPending, failure, setFailure, captchaFailure, setCaptchaFailure, start } = useCaptchaSubmit<ApiError, CaptchaError | ApiError>();
  const form = useForm({ fullName: '', email: fixedEmail ?? '', password: '', terms: false }, () => ({
    fullName: required,
    email,
    password: newPassword,
    terms: acceptTerms,
  }));
  const { values } = form;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending || !form.check()) return;
    start();
    try {
      const answer = await captcha.current?.token();
      const address = (fixedEmail ?? values.email).trim();
      await beforeSignUp?.();
      await signUp({
        full_name: values.fullName.trim(),
        email: address,
        password: values.password,
        accept_terms: true,
        captcha: answer,
        language: (i18n.resolvedLanguage ?? 'en') as Language,
        service_scope: service.scope,
      });
      rememberSignupEmail(address);
      void navigate(`${paths.registerVerifyingEmail}${search}`, { state: { email: address } });
    } catch (error) {
      // A captcha answer is single use: whatever happened, the next try gets a fresh one.
      captcha.current?.reset();
      if (error instanceof CaptchaError) setCaptchaFailure(error);
      else if (error instanceof ApiError) showServerError(error);
      else throw error;
    } finally {
      setPending(false);
    }
  };

  const showServerError = (error: ApiError) => {
    if (isCaptchaRefusal(error)) {
      setCaptchaFailure(error);
      return;
    }
    const fields = fieldErrors(error);
    const mapped: Record<string, FieldError> = {};
    for (const [name, message] of Object.entries(fields)) if (serverFields[name]) mapped[serverFields[name]] = message;
    if (Object.keys(mapped).length > 0) form.setServerErrors(mapped);
    else setFailure(error);
  };


  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <NameAndEmailFields form={form} labels={{ fullName: t('auth.register.form.fullName'), email: t('auth.register.form.email') }} emailAutoComplete="email" emailReadOnly={fixedEmail !== undefined} />
        <NewPasswordField label={t('auth.register.form.password')} field={form.text('password')} userInputs={[values.fullName, values.email]} />
        <TermsCheckbox form={form} />
        <SignUpCaptcha captchaRef={captcha} failure={captchaFailure} onAnswer={() => setCaptchaFailure(null)} />
        <FailureAlert failure={failure} />
        <Button type="submit" fullWidth loading={pending}>
          {t('auth.register.form.submit')}
        </Button>
        <Text size="sm">
          {t('auth.register.index.haveAccount')}{' '}
          <Anchor component={Link} to={`${paths.login}${search}`}>
            {t('auth.register.index.signIn')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
