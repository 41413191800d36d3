import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, operatorRoles, type Operator, type OperatorRole } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { useOperator } from '../operator-context';
import { DangerChangeButton } from '../DangerChangeButton';
import { changeDialog, ReasonDialog, type PendingChange } from '../ReasonDialog';
import { useGrantRole, useOperators, useRevokeRole } from './api';
import { LoadFailed } from '../LoadFailed';

const roleColor: Record<OperatorRole, string> = { owner: 'grape', support: 'blue', finance: 'teal' };
/** The shape the server takes (grantOperatorRequestSchema checks it again): enough to spare a round trip on a typo. */
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

/**
 * /admin/operators (owners, as the API: every call here is owner-only): who holds which role,
 * granting a role to an activated account by its email and taking one away, each with a reason
 * that goes into the operator audit log. Removing a role stops that account's sessions and
 * keys from acting as it at once; the portal keeps one owner (the server refuses the last).
 */
export function OperatorsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const me = useOperator();
  const operators = useOperators();
  const grant = useGrantRole();
  const revoke = useRevokeRole();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OperatorRole>('support');
  const [change, setChange] = useState<PendingChange | null>(null);
  const roleName = (value: OperatorRole) => t(`admin.roles.${value}`);

  const askGrant = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!looksLikeEmail(address)) return;
    setChange({
      title: t('admin.operators.grantTitle'),
      body: t('admin.operators.grantBody', { email: address, role: roleName(role) }),
      confirmLabel: t('admin.operators.grant'),
      run: async (reason) => {
        await grant.mutateAsync({ email: address, role, reason });
        setEmail('');
      },
    });
  };
  const revocation = (operator: Operator, held: OperatorRole) => ({
    title: t('admin.operators.revokeTitle', { role: roleName(held) }),
    body: t(operator.user_id === me.user_id ? 'admin.operators.revokeOwnBody' : 'admin.operators.revokeBody', { email: operator.email, role: roleName(held) }),
    confirmLabel: t('admin.operators.revoke'),
    run: (reason: string) => revoke.mutateAsync({ userId: operator.user_id, role: held, reason }),
  });

  return (
    <Stack gap="lg" data-testid="admin-operators">
      <PageHeader title={t('admin.operators.title')} description={t('admin.operators.description')} />
      <LoadFailed when={operators.isError} message={t('admin.operators.loadFailed')} />
      <Section title={t('admin.operators.grantSection')} description={t('admin.operators.grantHint')}>
        <form noValidate onSubmit={askGrant}>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              type="email"
              label={t('admin.operators.email')}
              value={email}
              maxLength={254}
              autoComplete="off"
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={email.trim() && !looksLikeEmail(email) ? t('admin.operators.emailInvalid') : undefined}
              style={{ flex: '1 1 14rem' }}
              data-testid="operator-email"
            />
            <NativeSelect
              label={t('admin.operators.role')}
              value={role}
              onChange={(event) => setRole(event.currentTarget.value as OperatorRole)}
              data={operatorRoles.map((value) => ({ value, label: roleName(value) }))}
              style={{ flex: '0 1 10rem' }}
              data-testid="operator-role"
            />
            <Button type="submit" disabled={!looksLikeEmail(email)} data-testid="operator-grant">
              {t('admin.operators.grant')}
            </Button>
          </Group>
        </form>
      </Section>
      {operators.data && (
        <Section title={t('admin.operators.listTitle')} description={t('admin.operators.listHint')}>
          <DataTable<Operator> rows={operators.data} rowKey={(row) => row.user_id} testId="operators-table" rowTestId="operator-row" label={t('admin.operators.listTitle')} minWidth={560}
            rowProps={(row) => ({ 'data-email': row.email, 'data-current': row.user_id === me.user_id ? 'true' : undefined })}
            columns={[
              {
                header: t('admin.operators.columns.operator'),
                cell: (row) => (
                  <Stack gap={0}>
                    <Text size="sm">{row.full_name || row.email}</Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {row.email}
                    </Text>
                  </Stack>
                ),
              },
              {
                header: t('admin.operators.columns.roles'),
                cell: (row) => (
                  <Stack gap={4}>
                    {row.roles.map((held) => (
                      <Group key={held.role} gap="xs" wrap="nowrap">
                        <Badge color={roleColor[held.role]} variant="light" miw="max-content" data-testid="operator-role-badge" data-role={held.role}>
                          {roleName(held.role)}
                        </Badge>
                        <Text size="xs" c="dimmed">
                          {t('admin.operators.since', { date: formatDate(held.granted_at, language) })}
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                ),
              },
            ]}
            actions={{
              label: t('admin.operators.columns.actions'),
              cell: (row) => (
                <Group gap="xs" justify="flex-end">
                  {row.roles.map((held) => (
                    <DangerChangeButton
                      key={held.role}
                      label={t('admin.operators.revokeShort', { role: roleName(held.role) })}
                      ariaLabel={t('admin.operators.revokeRole', { role: roleName(held.role), email: row.email })}
                      testId="operator-revoke"
                      dataRole={held.role}
                      onAsk={setChange}
                      change={() => revocation(row, held.role)}
                    />
                  ))}
                </Group>
              ),
            }}
          />
        </Section>
      )}
      <ReasonDialog {...changeDialog(change)} onClose={() => setChange(null)} />
    </Stack>
  );
}
