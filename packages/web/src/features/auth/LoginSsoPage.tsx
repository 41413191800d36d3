import '@mantine/core/styles/Alert.css';
import { useState } from 'react';
import { Alert, Stack, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { ApiError, errorText, retryAfterSeconds } from '../../lib/api';
import { recalledIdentifier, stateValue } from '../../lib/flow-storage';
import { startCompanySso } from '../../lib/social';
import { useCountdown } from '../../lib/use-countdown';
import { BackToLogin } from './BackToLogin';
import { LightField, LightForm, LightSubmit } from './LightField';
import { addressTyping } from '../../lib/address-input';

const looksLikeEmail = (value: string | null | undefined) => (value && value.includes('@') ? value : '');

/**
 * /login/sso: sign-in through the company's identity provider. The person types the SSO
 * identifier their company gave them, or their work email (a domain the company verified);
 * the server answers the IdP's page (OpenID Connect or SAML), which returns to /sso/redirect.
 * Sent here because their organization requires SSO (router state `reason`: a link just
 * confirmed ended the session it was confirmed on), the page says so above the form.
 */
export function LoginSsoPage() {
  const { t } = useTranslation();
  const { search, state } = useLocation();
  const [identifier, setIdentifier] = useState(() => looksLikeEmail(stateValue(state, 'identifier') ?? recalledIdentifier()));
  const [empty, setEmpty] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [wait, startWait] = useCountdown();
  const ssoRequired = stateValue(state, 'reason') === 'sso.required';

  const submit = async () => {
    if (pending || wait > 0) return;
    const value = identifier.trim();
    setEmpty(!value);
    setFailure(null);
    if (!value) return;
    setPending(true);
    try {
      await startCompanySso(value, search);
    } catch (error) {
      setPending(false);
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 429) startWait(retryAfterSeconds(error));
      setFailure(error);
    }
  };

  const message = empty ? t('auth.loginSso.identifierRequired') : failure?.status === 429 ? t('errors.rate_limited', { second: wait }) : failure ? errorText(failure) : undefined;

  return (
    <>
      <PageHeader title={t('auth.loginSso.title')} description={t('auth.loginSso.description')} />
      {ssoRequired && (
        <Alert color="blue" variant="light" role="status" mb="md" data-testid="sso-required-notice">
          {t('errors.sso.required')}
        </Alert>
      )}
      <LightForm onSubmit={submit}>
        <LightField
          label={t('auth.loginSso.identifierLabel')}
          placeholder={t('auth.loginSso.identifierPlaceholder')}
          name="sso-identifier"
          autoComplete="username"
          {...addressTyping}
          autoFocus
          value={identifier}
          onChange={(event) => setIdentifier(event.currentTarget.value)}
        />
        {message && (
          <Text size="sm" c="red.9" role="alert" data-testid="sso-error">
            {message}
          </Text>
        )}
        <LightSubmit loading={pending} disabled={wait > 0}>
          {t('auth.loginSso.continue')}
        </LightSubmit>
      </LightForm>
      <Stack gap="xs" mt="xl">
        <BackToLogin />
      </Stack>
    </>
  );
}
