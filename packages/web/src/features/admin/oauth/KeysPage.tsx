import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import { useState } from 'react';
import { Badge, Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, isLanguage, type SigningKey, type SigningKeyState } from '@portal/contracts';
import { NameCell } from '../../../components/cells';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { DangerChangeButton } from '../DangerChangeButton';
import { changeDialog, ReasonDialog, type PendingChange } from '../ReasonDialog';
import { useDropSigningKey, useRotateSigningKeys, useSigningKeys } from './api';
import { LoadFailed } from '../LoadFailed';

const stateColor: Record<SigningKeyState, string> = { signing: 'teal', published: 'blue', retiring: 'yellow', expired: 'gray' };

/**
 * /admin/keys (owners): the provider's signing keys and their states; rotate (the new keys sign
 * after every node has published them), rotate now (a leaked key), and drop a key that no longer signs.
 */
export function KeysPage() {
  const { t, i18n } = useTranslation();
  const keys = useSigningKeys();
  const rotate = useRotateSigningKeys();
  const drop = useDropSigningKey();
  const [change, setChange] = useState<PendingChange | null>(null);
  const when = (iso: string | null) => (iso ? formatDateTime(iso, isLanguage(i18n.language) ? i18n.language : 'en') : '—');
  const rotation = (immediately: boolean): PendingChange => ({
    title: immediately ? t('admin.oauth.keys.rotateNowTitle') : t('admin.oauth.keys.rotateTitle'),
    body: immediately ? t('admin.oauth.keys.rotateNowBody', { seconds: keys.data?.reload_seconds ?? 60 }) : t('admin.oauth.keys.rotateBody', { minutes: Math.round((keys.data?.publish_ahead_seconds ?? 300) / 60) }),
    confirmLabel: immediately ? t('admin.oauth.keys.rotateNow') : t('admin.oauth.keys.rotate'),
    danger: immediately,
    run: (reason) => rotate.mutateAsync({ immediately, reason }),
  });

  return (
    <Stack gap="lg" data-testid="admin-keys">
      <PageHeader title={t('admin.oauth.keys.title')} description={t('admin.oauth.keys.description')} />
      <LoadFailed when={keys.isError} message={t('admin.oauth.keys.loadFailed')} />
      <Group gap="sm">
        <Button onClick={() => setChange(rotation(false))} data-testid="keys-rotate">
          {t('admin.oauth.keys.rotate')}
        </Button>
        <Button variant="default" color="red" onClick={() => setChange(rotation(true))} data-testid="keys-rotate-now">
          {t('admin.oauth.keys.rotateNow')}
        </Button>
      </Group>
      {keys.data && (
        <Section title={t('admin.oauth.keys.listTitle')} description={t('admin.oauth.keys.listHint', { seconds: keys.data.reload_seconds })}>
          <DataTable<SigningKey> rows={keys.data.keys} rowKey={(row) => row.kid} testId="keys-table" rowTestId="key-row" label={t('admin.oauth.keys.listTitle')} minWidth={640}
            rowProps={(row) => ({ 'data-state': row.state, 'data-kid': row.kid })}
            columns={[
              {
                header: t('admin.oauth.keys.columns.key'),
                cell: (row) => <NameCell name={row.alg} detail={row.kid} detailMono />,
              },
              {
                header: t('admin.oauth.keys.columns.state'),
                cell: (row) => (
                  <Badge color={stateColor[row.state]} variant="light" miw="max-content" data-testid="key-state">
                    {t(`admin.oauth.keys.states.${row.state}`)}
                  </Badge>
                ),
              },
              { header: t('admin.oauth.keys.columns.activates'), cell: (row) => when(row.activates_at) },
              { header: t('admin.oauth.keys.columns.publishedUntil'), cell: (row) => when(row.published_until) },
            ]}
            actions={{
              label: t('admin.oauth.keys.columns.actions'),
              cell: (row) =>
                row.state === 'signing' ? null : (
                  <DangerChangeButton
                    label={t('admin.oauth.keys.drop')}
                    ariaLabel={t('admin.oauth.keys.dropKey', { kid: row.kid })}
                    testId="key-drop"
                    onAsk={setChange}
                    change={() => ({
                      title: t('admin.oauth.keys.dropTitle'),
                      body: t('admin.oauth.keys.dropBody', { kid: row.kid }),
                      confirmLabel: t('admin.oauth.keys.drop'),
                      run: (reason) => drop.mutateAsync({ kid: row.kid, reason }),
                    })}
                  />
                ),
            }}
          />
        </Section>
      )}
      <ReasonDialog {...changeDialog(change)} onClose={() => setChange(null)} />
    </Stack>
  );
}
