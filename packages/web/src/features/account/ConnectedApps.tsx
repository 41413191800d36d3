import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Button.css';
import { useState } from 'react';
import { Avatar, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate, oauthEndpoints } from '@portal/contracts';
import { DataTable } from '../../components/DataTable';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { connectedAppsKey, revokeConnectedApp, useConnectedApps } from './api';
import { useLanguage } from '../../lib/use-language';

/** Account settings' Connected apps: each outside app with its scopes and the date allowed, and Revoke (its tokens end too); a card per app on a phone. */
export function ConnectedApps() {
  const { t } = useTranslation();
  const apps = useConnectedApps();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<string | null>(null);
  const language = useLanguage();

  const revoke = async (clientId: string, name: string) => {
    setRevoking(clientId);
    try {
      await revokeConnectedApp(clientId);
      notify('success', t('account.connectedApps.revoked', { app: name }));
      await queryClient.invalidateQueries({ queryKey: connectedAppsKey });
    } finally {
      setRevoking(null);
    }
  };

  return (
    <Section title={t('account.connectedApps.title')} description={t('account.connectedApps.description')}>
      <Stack gap="sm" mt="xs" data-testid="connected-apps">
        {apps.data?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('account.connectedApps.empty')}
          </Text>
        )}
        {!!apps.data?.length && (
          <DataTable rows={apps.data} rowKey={(app) => app.client_id} minWidth={560} testId="connected-apps-table" rowTestId="connected-app" label={t('account.connectedApps.title')}
            columns={[
              {
                header: t('account.connectedApps.columns.app'),
                // The app's name heads its card on a phone.
                label: '',
                cell: (app) => (
                  <Group gap="sm" wrap="nowrap">
                    <Avatar src={app.logo_uri} alt="" radius="md" color="blue" size="sm">
                      {app.name.slice(0, 1).toUpperCase()}
                    </Avatar>
                    <Text size="sm" fw={500}>
                      {app.name}
                    </Text>
                  </Group>
                ),
              },
              {
                header: t('account.connectedApps.columns.access'),
                cell: (app) => (
                  <Text size="xs" c="dimmed">
                    {app.scopes
                      .map((scope) => (oauthEndpoints.wordedScopes.has(scope) ? t(`account.connectedApps.scopes.${scope as 'openid'}`) : scope))
                      .join(' · ')}
                  </Text>
                ),
              },
              { header: t('account.connectedApps.columns.allowed'), text: (app) => formatDate(app.granted_at, language), nowrap: true },
            ]}
            actions={{
              label: t('account.connectedApps.columns.actions'),
              cell: (app) => (
                <Button
                  variant="outline"
                  color="red"
                  size="xs"
                  loading={revoking === app.client_id}
                  onClick={() => revoke(app.client_id, app.name)}
                  aria-label={`${t('account.connectedApps.revoke')}: ${app.name}`}
                  data-testid="connected-app-revoke"
                >
                  {t('account.connectedApps.revoke')}
                </Button>
              ),
            }}
          />
        )}
      </Stack>
    </Section>
  );
}
