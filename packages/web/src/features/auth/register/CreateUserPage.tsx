import '@mantine/core/styles/Button.css';
import { useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, SOCIAL_PROVIDERS, socialEndpoints, type Language } from '@portal/contracts';
import { OtpInput } from '../../../components/form/OtpInput';
import { PageHeader } from '../../../components/PageHeader';
import { call } from '../../../lib/api';
import { useRuntimeConfig } from '../../../lib/runtime-context';
import { completeSignIn, signInTarget } from '../../../lib/sign-in';
import { recalledSignUpOffer, recalledSocialSearch, rememberSignUpOffer } from '../../../lib/social';
import { useForm } from '../../../lib/use-form';
import { acceptTerms, email, required } from '../../../lib/validators';
import { useAttempt } from '../use-attempt';
import { NameAndEmailFields, TermsCheckbox } from './SignUpFields';
import { FailureAlert } from '../../../components/FailureAlert';

/**
 * /create-user: the end of a sign-up with a social account. The name and email come from the
 * provider and can be changed; an email the provider did not prove (or another one) gets a
 * mailed code first, and the account exists only once the email is proven.
 */
export function CreateUserPage() {
  const { t, i18n } = useTranslation();
  const { allowedRedirectOrigins } = useRuntimeConfig();
  const [offer] = useState(recalledSignUpOffer);
  const form = useForm({ fullName: offer?.full_name ?? '', email: offer?.email ?? '', terms: false }, () => ({ fullName: required, email, terms: acceptTerms }));
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const { pending, failure, attempt } = useAttempt();

  if (!offer) {
    return (
      <>
        <PageHeader title={t('auth.register.createUser.title')} />
        <Stack gap="md">
          <Text data-testid="create-user-expired">{t('auth.register.createUser.noOffer')}</Text>
          <Anchor component={Link} to={paths.login}>
            {t('auth.backToLogin')}
          </Anchor>
        </Stack>
      </>
    );
  }
  const provider = SOCIAL_PROVIDERS[offer.provider].name;

  const signedIn = async () => {
    rememberSignUpOffer(null);
    await completeSignIn(signInTarget(recalledSocialSearch(), allowedRedirectOrigins));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.check()) return;
    void attempt(async () => {
      const answer = await call<typeof socialEndpoints.signUp>(
        socialEndpoints.signUp,
        {
          body: {
            signup_token: offer.signup_token,
            full_name: form.values.fullName.trim(),
            email: form.values.email.trim(),
            accept_terms: true,
            language: (i18n.resolvedLanguage ?? 'en') as Language,
          },
        },
        { handle: [400, 429] },
      );
      if ('token' in answer) await signedIn();
      else setCodeSentTo(answer.email);
    });
  };

  const verify = (value: string) =>
    attempt(async () => {
      await call<typeof socialEndpoints.verifySignUp>(socialEndpoints.verifySignUp, { body: { signup_token: offer.signup_token, code: value } }, { handle: [400, 429] });
      await signedIn();
    });

  return (
    <>
      <PageHeader title={t('auth.register.createUser.title')} description={t('auth.register.createUser.withProvider', { provider })} />
      {codeSentTo ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void verify(code);
          }}
        >
          <Stack gap="md">
            <Text size="sm" data-testid="create-user-code-sent">
              {t('auth.register.createUser.codeSent', { email: codeSentTo })}
            </Text>
            <OtpInput label={t('auth.register.createUser.code')} value={code} onChange={setCode} onComplete={(value) => void verify(value)} autoFocus error={failure ?? undefined} />
            <Button type="submit" fullWidth loading={pending}>
              {t('auth.register.createUser.verify')}
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={() => setCodeSentTo(null)}>
              {t('auth.register.createUser.changeEmail')}
            </Anchor>
          </Stack>
        </form>
      ) : (
        <form noValidate onSubmit={submit}>
          <Stack gap="md">
            <NameAndEmailFields form={form} labels={{ fullName: t('auth.register.form.fullName'), email: t('auth.register.form.email') }} emailAutoComplete="email" />
            {!offer.email_verified && <Text size="sm" c="dimmed">{t('auth.register.createUser.emailUnproven', { provider })}</Text>}
            <TermsCheckbox form={form} />
            <FailureAlert failure={failure} testId="create-user-error" />
            <Button type="submit" fullWidth loading={pending}>
              {t('auth.register.createUser.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </>
  );
}
