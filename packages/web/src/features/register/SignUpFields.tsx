import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import type { Ref } from 'react';
import { Anchor, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { CaptchaField } from '../../components/captcha/CaptchaField';
import { CaptchaError, type CaptchaHandle } from '../../components/captcha/types';
import { errorText, type ApiError } from '../../lib/api';
import type { Form } from '../../lib/use-form';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { FULL_NAME_MAX_LENGTH } from '../../lib/validators';

/** What every sign-up form asks, whichever way the account signs in (password or passkey). */
type SignUpValues = { fullName: string; email: string; terms: boolean };

// Any form with these fields (the password form has more); its `set` is only called with them.
type SignUpForm = Pick<Form<SignUpValues>, 'values' | 'set' | 'error'>;

/** Full name and email. A passkey sign-up names the email `username` for the passkey's account name. */
export function NameAndEmailFields({
  form,
  labels,
  emailAutoComplete,
  emailReadOnly,
}: {
  form: SignUpForm;
  labels: { fullName: string; email: string };
  emailAutoComplete: 'email' | 'username';
  /** The email is fixed (an invitation's): shown, not editable. */
  emailReadOnly?: boolean;
}) {
  return (
    <>
      <TextInput
        label={labels.fullName}
        name="name"
        autoComplete="name"
        maxLength={FULL_NAME_MAX_LENGTH}
        value={form.values.fullName}
        onChange={(event) => form.set('fullName', event.currentTarget.value)}
        error={form.error('fullName')}
      />
      <TextInput
        label={labels.email}
        name="email"
        type="email"
        autoComplete={emailAutoComplete}
        autoCapitalize="none"
        spellCheck={false}
        value={form.values.email}
        readOnly={emailReadOnly}
        onChange={(event) => form.set('email', event.currentTarget.value)}
        error={form.error('email')}
      />
    </>
  );
}

/** The required terms-and-privacy checkbox, its links on the main site. */
export function TermsCheckbox({ form }: { form: SignUpForm }) {
  const { mainSiteUrl } = useRuntimeConfig();
  const link = (path: string) => new URL(path, mainSiteUrl).toString();
  return (
    <Checkbox
      checked={form.values.terms}
      onChange={(event) => form.set('terms', event.currentTarget.checked)}
      error={form.error('terms')}
      label={
        <Trans
          i18nKey="register.form.terms"
          components={{
            terms: <Anchor href={link('/terms-of-service')} target="_blank" rel="noreferrer" inherit />,
            privacy: <Anchor href={link('/privacy-policy')} target="_blank" rel="noreferrer" inherit />,
          }}
        />
      }
    />
  );
}

/** The sign-up captcha (the server asks for it on every way to sign up), with its failure under it. */
export function SignUpCaptcha({ captchaRef, failure, onAnswer }: { captchaRef: Ref<CaptchaHandle>; failure: CaptchaError | ApiError | null; onAnswer(): void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('register.form.captchaLabel')}
      </Text>
      <CaptchaField ref={captchaRef} action="signup" auto="onfocus" onChange={(answer) => answer && onAnswer()} />
      {failure && (
        <Text size="xs" c="red.7" role="alert">
          {failure instanceof CaptchaError ? t(failure.key) : errorText(failure)}
        </Text>
      )}
    </Stack>
  );
}

/** Whether the server refused a sign-up for its captcha (shown at the captcha, not as a form error). */
export function isCaptchaRefusal(error: ApiError): boolean {
  return error.code === 'auth.captcha_required' || error.code === 'auth.captcha_invalid';
}
