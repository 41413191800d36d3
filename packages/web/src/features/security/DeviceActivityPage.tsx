import '@mantine/core/styles/Badge.css';
import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/contracts';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { revokeOtherSessions, revokeSession, useRefreshSecurity, useSessions, type SessionInfo } from './api';
import { Loaded, useLanguage, useSessionLabel } from './shared';

/** /security/device-activity: every signed-in session (this one marked), sign out one, or all the others. */
export function DeviceActivityPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const label = useSessionLabel();
  const sessions = useSessions();
  const refresh = useRefreshSecurity();
  const [revoking, setRevoking] = useState<SessionInfo | null>(null);
  const [revokingOthers, setRevokingOthers] = useState(false);
  const others = (sessions.data ?? []).filter((session) => !session.current).length;
  const unknown = t('security.devices.unknown');

  return (
    <Stack gap="lg">
      <PageHeader title={t('security.devices.title')} description={t('security.devices.description')} />
      <Section title={t('security.devices.sessions')}>
        <Loaded query={sessions} failure={t('security.devices.loadFailed')}>
          {(rows) => (
            <Stack gap="md">
              <DataTable rows={rows} rowKey={(session) => session.id} minWidth={720} testId="sessions-table" rowTestId="session-row"
                rowProps={(session) => ({ 'data-current': session.current ? 'true' : undefined })}
                columns={[
                  {
                    header: t('security.devices.browser'),
                    cell: (session) => (
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" fw={500}>
                          {label(session).browser}
                        </Text>
                        {session.current && (
                          <Badge size="xs" variant="light" color="green" data-testid="this-device">
                            {t('security.devices.thisDevice')}
                          </Badge>
                        )}
                      </Group>
                    ),
                  },
                  { header: t('security.devices.device'), text: (session) => label(session).device },
                  { header: t('security.devices.location'), text: (session) => session.location || unknown },
                  { header: t('security.devices.ip'), text: (session) => session.ip || unknown, mono: true },
                  { header: t('security.devices.lastActive'), text: (session) => formatDateTime(session.last_active_at, language), nowrap: true },
                ]}
                actions={{
                  label: t('passkeys.table.actions'),
                  cell: (session) =>
                    !session.current && (
                      <Button variant="subtle" color="red" size="compact-sm" onClick={() => setRevoking(session)} aria-label={`${t('security.devices.revoke')}: ${label(session).browser} · ${label(session).device}`} data-testid="revoke-session">
                        {t('security.devices.revoke')}
                      </Button>
                    ),
                }}
              />
              <Group>
                {others > 0 ? (
                  <Button color="red" variant="light" onClick={() => setRevokingOthers(true)} data-testid="revoke-others">
                    {t('security.devices.revokeOthers')}
                  </Button>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('security.devices.noOthers')}
                  </Text>
                )}
              </Group>
            </Stack>
          )}
        </Loaded>
      </Section>
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('security.devices.revokeTitle')}
        confirmLabel={t('security.devices.revoke')}
        danger
        onConfirm={async () => {
          await revokeSession(revoking!.id);
          notify('success', t('security.devices.revoked'));
          await refresh();
        }}
      >
        {revoking ? t('security.devices.revokeBody', label(revoking)) : ''}
      </ConfirmDialog>
      <ConfirmDialog
        opened={revokingOthers}
        onClose={() => setRevokingOthers(false)}
        title={t('security.devices.revokeOthersTitle')}
        confirmLabel={t('security.devices.revokeOthers')}
        danger
        onConfirm={async () => {
          const { revoked } = await revokeOtherSessions();
          notify('success', t('security.devices.revokedOthers', { count: revoked }));
          await refresh();
        }}
      >
        {t('security.devices.revokeOthersBody')}
      </ConfirmDialog>
    </Stack>
  );
}
