import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WebhookApp } from '@portal/contracts';
import { NameCell } from '../../../components/cells';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useOperator } from '../operator-context';
import { useRedeliver, useRemoveEndpoint, useRotateSecret, useSaveEndpoint, useWebhookApps } from './api';
import { DeliveryLog } from './DeliveryLog';
import { EndpointForm } from './EndpointForm';
import { changeDialog, ReasonDialog, type PendingChange } from '../ReasonDialog';
import { ListResults } from '../ListResults';
import { SecretOnce } from '../SecretOnce';
import { ChangeButton } from '../ChangeButton';

/**
 * /admin/webhooks: each outside app's endpoint and events, its signing secret (shown once, when
 * made or rotated) and its delivery log. Owners change; support reads the log.
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const operator = useOperator();
  const isOwner = operator.roles.includes('owner');
  const apps = useWebhookApps();
  const [selected, setSelected] = useState<string | null>(null);
  const [change, setChange] = useState<PendingChange | null>(null);
  const [shownSecret, setShownSecret] = useState<string | null>(null);
  const save = useSaveEndpoint();
  const rotate = useRotateSecret();
  const remove = useRemoveEndpoint();
  const redeliver = useRedeliver();
  const app = apps.data?.items.find((item) => item.client_id === selected) ?? null;
  const choose = (clientId: string) => {
    setSelected(clientId);
    setShownSecret(null);
  };

  return (
    <Stack gap="lg" data-testid="admin-webhooks">
      <PageHeader title={t('admin.webhooks.title')} description={t('admin.webhooks.description')} />
      <ListResults query={apps} rows={apps.data?.items} failed={t('admin.webhooks.loadFailed')} empty={t('admin.webhooks.noApps')}>
        {(rows) => (
          <DataTable<WebhookApp> rows={rows} rowKey={(row) => row.client_id} testId="webhook-apps" rowTestId="webhook-app" label={t('admin.webhooks.apps')} minWidth={640}
            rowProps={(row) => ({ 'data-current': row.client_id === selected ? 'true' : undefined })}
            columns={[
              {
                header: t('admin.webhooks.columns.app'),
                cell: (row) => <NameCell name={row.client_name} detail={row.client_id} detailMono />,
              },
              { header: t('admin.webhooks.columns.endpoint'), cell: (row) => (row.endpoint ? (row.endpoint.enabled ? row.endpoint.url : t('admin.webhooks.off', { url: row.endpoint.url })) : t('admin.webhooks.none')) },
              { header: t('admin.webhooks.columns.pending'), cell: (row) => String(row.pending) },
              { header: t('admin.webhooks.columns.failed'), cell: (row) => String(row.failed) },
            ]}
            actions={{
              label: t('admin.webhooks.columns.actions'),
              cell: (row) => (
                <Button size="xs" variant="light" onClick={() => choose(row.client_id)} data-testid="webhook-manage" aria-label={t('admin.webhooks.manageApp', { name: row.client_name })}>
                  {t('admin.webhooks.manage')}
                </Button>
              ),
            }}
          />
        )}
      </ListResults>

      {app && (
        <>
          <Section title={t('admin.webhooks.endpointOf', { name: app.client_name })}>
            <Stack gap="md">
              {shownSecret && <SecretOnce title={t('admin.webhooks.secretTitle')} text={t('admin.webhooks.secretOnce')} secret={shownSecret} testId="webhook-secret" />}
              <EndpointForm
                key={`${app.client_id}:${app.endpoint?.updated_at ?? 'none'}`}
                app={app}
                canChange={isOwner}
                onSave={(draft) =>
                  setChange({
                    title: t('admin.webhooks.saveTitle'),
                    body: t('admin.webhooks.saveBody', { name: app.client_name }),
                    confirmLabel: t('admin.webhooks.save'),
                    run: async (reason) => {
                      const saved = await save.mutateAsync({ clientId: app.client_id, ...draft, reason });
                      if (saved.secret) setShownSecret(saved.secret);
                    },
                  })
                }
              />
              {isOwner && app.endpoint && (
                <Group gap="sm">
                  <ChangeButton
                    testId="webhook-rotate"
                    onAsk={setChange}
                    change={{
                      title: t('admin.webhooks.rotateTitle'),
                      body: t('admin.webhooks.rotateBody'),
                      confirmLabel: t('admin.webhooks.rotate'),
                      danger: true,
                      run: async (reason) => setShownSecret((await rotate.mutateAsync({ clientId: app.client_id, reason })).secret),
                    }}
                  />
                  <ChangeButton
                    testId="webhook-remove"
                    red
                    onAsk={setChange}
                    change={{
                      title: t('admin.webhooks.removeTitle'),
                      body: t('admin.webhooks.removeBody'),
                      confirmLabel: t('admin.webhooks.remove'),
                      danger: true,
                      run: async (reason) => {
                        await remove.mutateAsync({ clientId: app.client_id, reason });
                        setShownSecret(null);
                      },
                    }}
                  />
                </Group>
              )}
            </Stack>
          </Section>
          <Section title={t('admin.webhooks.log')}>
            <DeliveryLog
              clientId={app.client_id}
              {...(isOwner
                ? {
                    onRedeliver: (delivery) =>
                      setChange({
                        title: t('admin.webhooks.redeliverTitle'),
                        body: t('admin.webhooks.redeliverBody', { type: delivery.type }),
                        confirmLabel: t('admin.webhooks.redeliver'),
                        run: (reason) => redeliver.mutateAsync({ clientId: app.client_id, deliveryId: delivery.id, reason }),
                      }),
                  }
                : {})}
            />
          </Section>
        </>
      )}
      <ReasonDialog {...changeDialog(change)} onClose={() => setChange(null)} />
    </Stack>
  );
}
