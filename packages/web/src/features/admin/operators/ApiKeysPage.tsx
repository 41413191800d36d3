import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/SimpleGrid.css';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminScopes, formatDate, type AdminScope, type OperatorApiKey } from '@portal/contracts';
import { NameCell } from '../../../components/cells';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { KeyToCopy } from '../../../components/KeyToCopy';
import { ScopeCheckbox } from '../../../components/ScopeCheckbox';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { DangerChangeButton } from '../DangerChangeButton';
import { changeDialog, ReasonDialog, type PendingChange } from '../ReasonDialog';
import { useCreateOperatorApiKey, useOperatorApiKeys, useRevokeOperatorApiKey } from './api';
import { LoadFailed } from '../LoadFailed';

const NAME_MAX = 100;
const EXPIRY_MAX_DAYS = 365;
/** A scope's area, named as the menu names it (`admin:people` is People). */
const scopeLabel = (scope: AdminScope) => `admin.nav.${scope.slice('admin:'.length)}` as `admin.nav.${'people'}`;

/**
 * /admin/api-keys (every operator, as the API: keys are their operator's own): the operator's
 * keys for scripts, by name, prefix and scopes, never the key itself; a new key is shown in
 * this page once, with a copy button, and is gone once dismissed or the page is left.
 * Creating and revoking take a reason and a recent sign-in (the console asks again).
 */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const keys = useOperatorApiKeys();
  const create = useCreateOperatorApiKey();
  const revoke = useRevokeOperatorApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<AdminScope[]>(['admin:dashboard']);
  const [expiresInDays, setExpiresInDays] = useState<number | ''>('');
  const [change, setChange] = useState<PendingChange | null>(null);
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const ready = name.trim().length > 0 && scopes.length > 0;
  const date = (iso: string | null, none: string) => (iso ? formatDate(iso, language) : none);

  const askCreate = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const request = { name: name.trim(), scopes, ...(expiresInDays === '' ? {} : { expires_in_days: expiresInDays }) };
    setChange({
      title: t('admin.operators.apiKeys.createTitle'),
      body: t('admin.operators.apiKeys.createBody', { name: request.name, scopes: scopes.join(', ') }),
      confirmLabel: t('admin.operators.apiKeys.create'),
      run: async (reason) => {
        const made = await create.mutateAsync({ ...request, reason });
        setShown({ name: made.name, key: made.key });
        setName('');
        setExpiresInDays('');
      },
    });
  };

  return (
    <Stack gap="lg" data-testid="admin-api-keys">
      <PageHeader title={t('admin.operators.apiKeys.title')} description={t('admin.operators.apiKeys.description')} />
      <LoadFailed when={keys.isError} message={t('admin.operators.apiKeys.loadFailed')} />
      {shown && (
        <Alert color="yellow" title={t('admin.operators.apiKeys.shownTitle', { name: shown.name })} data-testid="operator-key-shown">
          <Stack gap="xs">
            <Text size="sm">{t('admin.operators.apiKeys.shownOnce')}</Text>
            <KeyToCopy label={t('admin.operators.apiKeys.keyLabel')} value={shown.key} valueTestId="operator-key-value" copyTestId="operator-key-copy" />
            <Group>
              <Button size="xs" variant="default" onClick={() => setShown(null)} data-testid="operator-key-dismiss">
                {t('admin.operators.apiKeys.shownDone')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <Section title={t('admin.operators.apiKeys.createSection')} description={t('admin.operators.apiKeys.createHint')}>
        <form noValidate onSubmit={askCreate}>
          <Stack gap="md">
            <TextInput label={t('admin.operators.apiKeys.name')} value={name} maxLength={NAME_MAX} onChange={(event) => setName(event.currentTarget.value)} data-testid="operator-key-name" />
            <Checkbox.Group
              label={t('admin.operators.apiKeys.scopes')}
              description={t('admin.operators.apiKeys.scopesHint')}
              value={scopes}
              onChange={(value) => setScopes(value as AdminScope[])}
              error={scopes.length === 0 ? t('admin.operators.apiKeys.scopesRequired') : undefined}
            >
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs" mt="xs">
                {adminScopes.map((scope) => (
                  <ScopeCheckbox key={scope} scope={scope} name={t(scopeLabel(scope))} data-testid="operator-key-scope" data-scope={scope} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            <NumberInput
              label={t('admin.operators.apiKeys.expires')}
              description={t('admin.operators.apiKeys.expiresHint', { max: EXPIRY_MAX_DAYS })}
              min={1}
              max={EXPIRY_MAX_DAYS}
              clampBehavior="strict"
              allowDecimal={false}
              allowNegative={false}
              value={expiresInDays}
              onChange={(value) => setExpiresInDays(typeof value === 'number' ? value : '')}
              maw={240}
              data-testid="operator-key-expires"
            />
            <Group>
              <Button type="submit" disabled={!ready} data-testid="operator-key-create">
                {t('admin.operators.apiKeys.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Section>
      {keys.data && (
        <Section title={t('admin.operators.apiKeys.listTitle')}>
          {keys.data.length === 0 ? (
            <Text size="sm" data-testid="operator-keys-empty">
              {t('admin.operators.apiKeys.none')}
            </Text>
          ) : (
            <DataTable<OperatorApiKey> rows={keys.data} rowKey={(row) => row.id} testId="operator-keys-table" rowTestId="operator-key-row" label={t('admin.operators.apiKeys.listTitle')} minWidth={680}
              rowProps={(row) => ({ 'data-name': row.name })}
              columns={[
                {
                  header: t('admin.operators.apiKeys.columns.key'),
                  cell: (row) => <NameCell name={row.name} detail={`${row.prefix}…`} detailMono detailTestId="operator-key-prefix" />,
                },
                { header: t('admin.operators.apiKeys.columns.scopes'), cell: (row) => <Text size="xs" ff="monospace">{row.scopes.join(' ')}</Text> },
                { header: t('admin.operators.apiKeys.columns.created'), cell: (row) => date(row.created_at, '—') },
                { header: t('admin.operators.apiKeys.columns.lastUsed'), cell: (row) => date(row.last_used_at, t('admin.operators.apiKeys.never')) },
                { header: t('admin.operators.apiKeys.columns.expires'), cell: (row) => date(row.expires_at, t('admin.operators.apiKeys.never')) },
              ]}
              actions={{
                label: t('admin.operators.apiKeys.columns.actions'),
                cell: (row) => (
                  <DangerChangeButton
                    label={t('admin.operators.apiKeys.revoke')}
                    ariaLabel={t('admin.operators.apiKeys.revokeKey', { name: row.name })}
                    testId="operator-key-revoke"
                    onAsk={setChange}
                    change={() => ({
                      title: t('admin.operators.apiKeys.revokeTitle', { name: row.name }),
                      body: t('admin.operators.apiKeys.revokeBody'),
                      confirmLabel: t('admin.operators.apiKeys.revoke'),
                      run: (reason) => revoke.mutateAsync({ id: row.id, reason }),
                    })}
                  />
                ),
              }}
            />
          )}
        </Section>
      )}
      <ReasonDialog {...changeDialog(change)} onClose={() => setChange(null)} />
    </Stack>
  );
}
