import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import { Anchor, Checkbox, TextInput } from '@mantine/core';
import { Trans } from 'react-i18next';
import type { Form } from '../../../lib/use-form';
import { useRuntimeConfig } from '../../../lib/runtime-context';
import { FULL_NAME_MAX_LENGTH } from '../../../lib/validators';
import { addressTyping } from '../../../lib/address-input';

/** What every sign-up form asks, whichever way the account signs in (password or passkey). */
type SignUpValues = { fullName: string; email: string; terms: boolean };

// Any form with these fields (the password form has more); its `set` is only called with them.
type SignUpForm = Pick<Form<SignUpValues>, 'values' | 'set' | 'error' | 'text'>;

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
        {...form.text('fullName')}
      />
      <TextInput
        label={labels.email}
        name="email"
        type="email"
        autoComplete={emailAutoComplete}
        {...addressTyping}
        readOnly={emailReadOnly}
        {...form.text('email')}
      />
    </>
  );
}

/** The required terms-and-privacy checkbox, its links the brand's (RuntimeConfig.termsUrl, privacyUrl). */
export function TermsCheckbox({ form }: { form: SignUpForm }) {
  const { termsUrl, privacyUrl } = useRuntimeConfig();
  return (
    <Checkbox
      checked={form.values.terms}
      onChange={(event) => form.set('terms', event.currentTarget.checked)}
      error={form.error('terms')}
      label={
        <Trans
          i18nKey="auth.register.form.terms"
          components={{
            terms: <Anchor href={termsUrl} target="_blank" rel="noopener noreferrer" inherit />,
            privacy: <Anchor href={privacyUrl} target="_blank" rel="noopener noreferrer" inherit />,
          }}
        />
      }
    />
  );
}
