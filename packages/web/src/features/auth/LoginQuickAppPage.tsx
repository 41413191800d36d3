import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginPathFor, oauthEndpoints, paths } from '@portal/contracts';
import { ReauthDialog } from '../../components/dialogs/ReauthDialog';
import { PageHeader } from '../../components/PageHeader';
import { call } from '../../lib/api';
import { loadAccountCatalogue } from '../../lib/i18n';
import { currentUser, useAuthState } from '../../lib/session';
import { PageLoading } from '../../components/LoadingIndicator';
import { useAttempt } from './use-attempt';

type OAuthApp = oauthEndpoints.OAuthApp;

/**
 * /login/quick-app, a child of /login (the spec's routes): a desktop or mobile app's sign-in by the
 * device flow (RFC 8628). The app shows a code and this address (`?user_code=` prefills it,
 * never submits it). A signed-out person reaches it like the other sign-in pages: they enter or
 * confirm the code, sign in, and come back here with it. The signed-in person enters or confirms the code, sees which app asks for what and the code to compare
 * with the device, and approves or refuses it; approving needs a sign-in of the last few
 * minutes (the server answers `auth.reauth_required`, and the dialog asks).
 */
export function LoginQuickAppPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { loggedIn } = useAuthState();
  // No guard asks who is here (both may use the page): the page asks once itself.
  const [sessionKnown, setSessionKnown] = useState(false);
  useEffect(() => {
    let live = true;
    void currentUser()
      .catch(() => null)
      .then(() => live && setSessionKnown(true));
    return () => {
      live = false;
    };
  }, []);
  const params = new URLSearchParams(useLocation().search);
  const [code, setCode] = useState(params.get('user_code') ?? '');
  const { pending, failure, attempt } = useAttempt();
  const [request, setRequest] = useState<{ app: OAuthApp; scopes: string[]; user_code: string } | null>(null);
  const [outcome, setOutcome] = useState<'approved' | 'refused' | null>(null);

  const lookUp = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    // Signed out: sign in first, then back here with the code (the app's request is only shown to its person).
    if (!loggedIn) return void navigate(loginPathFor(`${paths.loginQuickApp}?user_code=${encodeURIComponent(code.trim())}`));
    void attempt(async () => setRequest(await call(oauthEndpoints.deviceRequest, { body: { user_code: code.trim() } }, { handle: [400] })));
  };

  const decide = (allow: boolean) =>
    attempt(async () => {
      // The re-authentication dialog's words are in the account catalogue, which this page does not load otherwise.
      await loadAccountCatalogue().catch(() => undefined);
      const { approved } = await call(oauthEndpoints.deviceDecision, { body: { user_code: request!.user_code, allow } }, { handle: [400] });
      setOutcome(approved ? 'approved' : 'refused');
    });

  if (!sessionKnown) {
    return <PageLoading />;
  }

  return (
    <Stack gap="md">
      {/* Approving needs a recent sign-in (the code may be a phisher's): this page is outside the shell that asks. */}
      <ReauthDialog />
      <PageHeader title={t('auth.loginQuickApp.title')} description={t('auth.loginQuickApp.description')} />
      {failure && (
        <Alert color="red" variant="light" data-testid="quick-app-error">
          {failure}
        </Alert>
      )}
      {outcome ? (
        <Alert color={outcome === 'approved' ? 'green' : 'gray'} variant="light" data-testid="quick-app-outcome">
          {t(`auth.loginQuickApp.${outcome}`)}
        </Alert>
      ) : request ? (
        <Stack gap="sm">
          <Text fw={500}>{t('auth.loginQuickApp.confirm', { app: request.app.name })}</Text>
          <Text size="xl" fw={700} ff="monospace" data-testid="quick-app-user-code">
            {request.user_code}
          </Text>
          <Text size="sm">{t('auth.loginQuickApp.compare')}</Text>
          <Stack component="ul" gap={4} m={0} pl="md">
            {request.scopes.map((scope) => (
              <Text component="li" size="sm" key={scope}>{oauthEndpoints.wordedScopes.has(scope) ? t(`auth.oauthAuthorize.scopes.${scope as 'openid'}`) : scope}</Text>
            ))}
          </Stack>
          <Group grow>
            <Button variant="default" onClick={() => decide(false)} disabled={pending} data-testid="quick-app-refuse">
              {t('auth.loginQuickApp.refuse')}
            </Button>
            <Button onClick={() => decide(true)} loading={pending} data-testid="quick-app-approve">
              {t('auth.loginQuickApp.approve')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={lookUp} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('auth.loginQuickApp.codeLabel')}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value.toUpperCase())}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              maxLength={32}
              data-testid="quick-app-code"
            />
            {!loggedIn && (
              <Text size="sm" c="dimmed" data-testid="quick-app-sign-in-first">
                {t('auth.loginQuickApp.signInFirst')}
              </Text>
            )}
            <Button type="submit" loading={pending} data-testid="quick-app-continue">
              {loggedIn ? t('auth.loginQuickApp.continue') : t('auth.loginQuickApp.signInToContinue')}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
