import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/VisuallyHidden.css';
import { useState } from 'react';
import { Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/contracts';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { revokeOtherSessions, revokeSession, useRefreshSecurity, useSessions, type SessionInfo } from './api';
import { LoadFailed, Loading, useLanguage, useSessionLabel } from './shared';

/** /security/device-activity: every signed-in session (this one marked), sign out one, or all the others. */
export function DeviceActivityPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const label = useSessionLabel();
  const sessions = useSessions();
  const refresh = useRefreshSecurity();
  const [revoking, setRevoking] = useState<SessionInfo | null>(null);
  const [revokingOthers, setRevokingOthers] = useState(false);
  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current).length;
  const unknown = t('securityCenter.devices.unknown');

  return (
    <Stack gap="lg">
      <PageHeader title={t('securityCenter.devices.title')} description={t('securityCenter.devices.description')} />
      <Section title={t('securityCenter.devices.sessions')}>
        {sessions.isPending ? (
          <Loading />
        ) : !sessions.data ? (
          <LoadFailed message={t('securityCenter.devices.loadFailed')} />
        ) : (
          <Stack gap="md">
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="sm" data-testid="sessions-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('securityCenter.devices.browser')}</Table.Th>
                    <Table.Th>{t('securityCenter.devices.device')}</Table.Th>
                    <Table.Th>{t('securityCenter.devices.location')}</Table.Th>
                    <Table.Th>{t('securityCenter.devices.ip')}</Table.Th>
                    <Table.Th>{t('securityCenter.devices.lastActive')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('passkeyUi.table.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((session) => {
                    const { browser, device } = label(session);
                    return (
                      <Table.Tr key={session.id} data-testid="session-row" data-current={session.current || undefined}>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Text size="sm" fw={500}>
                              {browser}
                            </Text>
                            {session.current && (
                              <Badge size="xs" variant="light" color="green" data-testid="this-device">
                                {t('securityCenter.devices.thisDevice')}
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{device}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{session.location || unknown}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" ff="monospace">
                            {session.ip || unknown}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                            {formatDateTime(session.last_active_at, language)}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          {!session.current && (
                            <Button variant="subtle" color="red" size="compact-sm" onClick={() => setRevoking(session)} aria-label={`${t('securityCenter.devices.revoke')}: ${browser} · ${device}`} data-testid="revoke-session">
                              {t('securityCenter.devices.revoke')}
                            </Button>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Group>
              {others > 0 ? (
                <Button color="red" variant="light" onClick={() => setRevokingOthers(true)} data-testid="revoke-others">
                  {t('securityCenter.devices.revokeOthers')}
                </Button>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('securityCenter.devices.noOthers')}
                </Text>
              )}
            </Group>
          </Stack>
        )}
      </Section>
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('securityCenter.devices.revokeTitle')}
        confirmLabel={t('securityCenter.devices.revoke')}
        danger
        onConfirm={async () => {
          await revokeSession(revoking!.id);
          notify('success', t('securityCenter.devices.revoked'));
          await refresh();
        }}
      >
        {revoking ? t('securityCenter.devices.revokeBody', label(revoking)) : ''}
      </ConfirmDialog>
      <ConfirmDialog
        opened={revokingOthers}
        onClose={() => setRevokingOthers(false)}
        title={t('securityCenter.devices.revokeOthersTitle')}
        confirmLabel={t('securityCenter.devices.revokeOthers')}
        danger
        onConfirm={async () => {
          const { revoked } = await revokeOtherSessions();
          notify('success', t('securityCenter.devices.revokedOthers', { count: revoked }));
          await refresh();
        }}
      >
        {t('securityCenter.devices.revokeOthersBody')}
      </ConfirmDialog>
    </Stack>
  );
}
