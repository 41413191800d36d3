import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Code.css';
import { useState } from 'react';
import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatDateTime, type apiKeySchema } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { StateBadge } from '../../components/cells';
import { DataTable } from '../../components/DataTable';
import { CreateKeyDialog, scopeLabelKey } from './CreateKeyDialog';
import { notify } from '../../lib/api';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api';
import { useLanguage } from '../../lib/use-language';
import { LoadingIndicator } from '../../components/LoadingIndicator';

type ApiKey = z.infer<typeof apiKeySchema>;

/** /api-keys: personal API keys, each limited to its scopes. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const when = (value: string | null, empty: string) => (value ? formatDateTime(value, language) : empty);
  const expired = (key: ApiKey) => key.expires_at !== null && new Date(key.expires_at).getTime() <= Date.now();

  return (
    <Stack gap="lg">
      <PageHeader title={t('apiKeys.title')} description={t('apiKeys.description')} />
      <Section title={t('apiKeys.list.title')} description={t('apiKeys.list.description')}>
        <Group justify="flex-end">
          <Button onClick={() => setCreating(true)} data-testid="create-api-key">
            {t('apiKeys.create')}
          </Button>
        </Group>
        {keys.isPending ? (
          <Group justify="center" py="md">
            <LoadingIndicator />
          </Group>
        ) : !keys.data?.length ? (
          <Text size="sm" c="dimmed" py="sm">
            {t('apiKeys.empty')}
          </Text>
        ) : (
          <DataTable rows={keys.data} rowKey={(key) => key.id} minWidth={720} highlightOnHover testId="api-keys-table" rowTestId="api-key-row"
            columns={[
              {
                header: t('apiKeys.columns.name'),
                cell: (key) => (
                  <Stack gap={2}>
                    <Text size="sm" fw={500}>
                      {key.name}
                    </Text>
                    <Code fz="xs">{key.prefix}…</Code>
                  </Stack>
                ),
              },
              { header: t('apiKeys.columns.created'), text: (key) => when(key.created_at, '') },
              {
                header: t('apiKeys.columns.scopes'),
                cell: (key) => (
                  <Group gap={4}>
                    {key.scopes.map((scope) => (
                      <Badge key={scope} variant="light" size="sm" tt="none" title={t(scopeLabelKey(scope))}>
                        {scope}
                      </Badge>
                    ))}
                  </Group>
                ),
              },
              { header: t('apiKeys.columns.lastUsed'), text: (key) => when(key.last_used_at, t('common.never')) },
              {
                header: t('apiKeys.columns.expires'),
                cell: (key) =>
                  expired(key) ? (
                    <StateBadge color="red" size="sm">{t('apiKeys.expired')}</StateBadge>
                  ) : (
                    <Text size="sm">{when(key.expires_at, t('apiKeys.noExpiry'))}</Text>
                  ),
              },
            ]}
            actions={{
              label: t('apiKeys.columns.actions'),
              cell: (key) => (
                <Button variant="subtle" color="red" size="xs" onClick={() => setRevoking(key)} aria-label={t('apiKeys.revokeNamed', { name: key.name })}>
                  {t('apiKeys.revoke')}
                </Button>
              ),
            }}
          />
        )}
      </Section>

      <CreateKeyDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreate={async (body) => {
          const created = await create.mutateAsync(body);
          notify('success', t('apiKeys.created', { name: created.name }));
          return created;
        }}
      />
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('apiKeys.revokeTitle', { name: revoking?.name ?? '' })}
        confirmLabel={t('apiKeys.revoke')}
        danger
        onConfirm={async () => {
          if (!revoking) return;
          await revoke.mutateAsync(revoking.id);
          notify('success', t('apiKeys.revoked', { name: revoking.name }));
        }}
      >
        {t('apiKeys.revokeBody')}
      </ConfirmDialog>
    </Stack>
  );
}
