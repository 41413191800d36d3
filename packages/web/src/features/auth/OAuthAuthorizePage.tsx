import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { oauthEndpoints } from '@portal/contracts';
import { ApiError, call, errorText } from '../../lib/api';

/**
 * /o/authorize?interaction=<uid>: the consent step of the OpenID Connect provider. The app's
 * name, logo and site, what it asks for in plain words, and Allow / Deny; the answer goes back
 * through the provider, which redirects to the app (a code, or access_denied). A product of
 * the family never comes here (it skips consent); a bad request never reaches this page (the
 * provider shows its error page and does not redirect).
 */
export function OAuthAuthorizePage() {
  const { t } = useTranslation();
  const params = new URLSearchParams(useLocation().search);
  const uid = params.get('interaction') ?? '';
  const [pending, setPending] = useState<'allow' | 'deny' | null>(null);
  // This page lives outside the signed-in shell (no query client): one fetch on arrival.
  const [request, setRequest] = useState<{ data?: oauthEndpoints.ConsentRequest; error?: unknown }>({});
  useEffect(() => {
    if (!uid) return;
    let live = true;
    call(oauthEndpoints.consentRequest, { params: { uid } }, { handle: [400, 404] }).then(
      (data) => live && setRequest({ data }),
      (error: unknown) => live && setRequest({ error }),
    );
    return () => {
      live = false;
    };
  }, [uid]);

  const decide = async (allow: boolean) => {
    setPending(allow ? 'allow' : 'deny');
    try {
      const { redirect_to } = await call(oauthEndpoints.consentDecision, { params: { uid }, body: { allow } });
      location.assign(redirect_to);
    } catch {
      setPending(null);
    }
  };

  if (!uid || request.error) {
    const error = request.error;
    return (
      <Stack gap="md">
        <Title order={1} fz="h3">
          {t('auth.oauthAuthorize.title')}
        </Title>
        <Alert color="red" variant="light" data-testid="consent-expired">
          {error instanceof ApiError && error.code !== 'oauth.request_expired' && error.code !== 'validation_error' ? errorText(error) : t('auth.oauthAuthorize.expired')}
        </Alert>
      </Stack>
    );
  }
  if (!request.data) return null;
  const { app, scopes, email } = request.data;

  return (
    <Stack gap="md" data-testid="consent">
      <Group gap="md" wrap="nowrap">
        {app.logo_uri && <img src={app.logo_uri} alt="" width={48} height={48} style={{ borderRadius: 8 }} />}
        <Title order={1} fz="h3">
          {t('auth.oauthAuthorize.heading', { app: app.name })}
        </Title>
      </Group>
      {app.client_uri && (
        <Text size="sm">
          {t('auth.oauthAuthorize.site')}:{' '}
          <Anchor href={app.client_uri} target="_blank" rel="noopener noreferrer">
            {new URL(app.client_uri).host}
          </Anchor>
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {t('auth.oauthAuthorize.signedInAs', { email })}
      </Text>
      <Text size="sm" fw={500}>
        {t('auth.oauthAuthorize.asks')}
      </Text>
      <Stack component="ul" gap={6} m={0} pl="md" data-testid="consent-scopes">
        {scopes.map((scope) => (
          <Text component="li" size="sm" key={scope}>{oauthEndpoints.wordedScopes.has(scope) ? t(`auth.oauthAuthorize.scopes.${scope as 'openid'}`) : scope}</Text>
        ))}
      </Stack>
      <Text size="xs" c="dimmed">
        {t('auth.oauthAuthorize.remembered')}
      </Text>
      <Group grow>
        <Button variant="default" onClick={() => decide(false)} loading={pending === 'deny'} disabled={pending !== null} data-testid="consent-deny">
          {t('auth.oauthAuthorize.deny')}
        </Button>
        <Button onClick={() => decide(true)} loading={pending === 'allow'} disabled={pending !== null} data-testid="consent-allow">
          {t('auth.oauthAuthorize.allow')}
        </Button>
      </Group>
    </Stack>
  );
}
