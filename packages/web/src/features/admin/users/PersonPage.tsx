import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/SimpleGrid.css';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, type PersonDetail } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { DetailFailed } from '../DetailFailed';
import { useOperator } from '../operator-context';
import { usePerson, usePersonAction, type PersonAction } from './api';
import { ReasonDialog } from '../ReasonDialog';
import { StatusBadge } from './StatusBadge';

/** Which actions a person's state allows (the server refuses the others anyway). */
function actionsFor(person: PersonDetail): PersonAction[] {
  if (person.status === 'deleted') return [];
  const actions: PersonAction[] = [person.locked_at ? 'unlock' : 'lock', 'endSessions'];
  if (person.second_factors.some((factor) => factor.kind !== 'passkey')) actions.push('resetSecondFactors');
  if (!person.activated_at) actions.push('resendActivation');
  if (!person.deletion_requested_at) actions.push('startDeletion');
  return actions;
}
const dangerous = new Set<PersonAction>(['lock', 'startDeletion', 'resetSecondFactors']);

function Fact({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}

/** /admin/people/:userId: a person's account as support needs it, and the actions on it. */
export function PersonPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { userId = '' } = useParams();
  const operator = useOperator();
  const person = usePerson(userId);
  const act = usePersonAction(userId);
  const [pending, setPending] = useState<PersonAction | null>(null);
  // Finance reads only: the actions are support's and the owners' (the server says the same).
  const mayAct = operator.roles.some((role) => role === 'owner' || role === 'support');

  const back = (
    <Anchor component={Link} to="/admin/people" size="sm">
      {t('admin.users.back')}
    </Anchor>
  );
  if (person.isError) return <DetailFailed back={back} error={person.error} testId="person-error" />;
  if (!person.data) return <Text>{t('admin.users.loading')}</Text>;
  const p = person.data;
  const date = (value: string | null) => (value ? formatDateTime(value, language) : '—');
  const empty = (testId: string) => (
    <Text size="sm" c="dimmed" data-testid={testId}>
      {t('admin.users.none')}
    </Text>
  );
  /** A line of text per item, or that there is none. */
  const lines = <T,>(items: readonly T[], emptyTestId: string, key: (item: T) => string, text: (item: T) => string) =>
    items.length === 0
      ? empty(emptyTestId)
      : items.map((item) => (
          <Text key={key(item)} size="sm">
            {text(item)}
          </Text>
        ));

  return (
    <Stack gap="lg" data-testid="admin-person">
      {back}
      <PageHeader title={p.full_name || p.email} description={p.email} />
      <Section title={t('admin.users.account')}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
          <Fact label={t('admin.users.columns.status')} value={<StatusBadge status={p.status} />} />
          <Fact label={t('admin.users.columns.email')} value={p.email} />
          <Fact label={t('admin.users.columns.username')} value={p.username ?? '—'} />
          <Fact label={t('admin.users.id')} value={<Text span ff="monospace" size="sm">{p.id}</Text>} />
          <Fact label={t('admin.users.columns.created')} value={date(p.created_at)} />
          <Fact label={t('admin.users.activated')} value={date(p.activated_at)} />
          <Fact label={t('admin.users.language')} value={p.language} />
          {p.locked_at && <Fact label={t('admin.users.lockedAt')} value={date(p.locked_at)} testId="person-locked-at" />}
          {p.deletion_due_at && <Fact label={t('admin.users.deletionDue')} value={date(p.deletion_due_at)} />}
        </SimpleGrid>
        {mayAct && (
          <Group gap="sm" mt="lg" data-testid="person-actions">
            {actionsFor(p).map((action) => (
              <Button key={action} variant={dangerous.has(action) ? 'light' : 'default'} color={dangerous.has(action) ? 'red' : undefined} onClick={() => setPending(action)} data-testid={`person-${action}`}>
                {t(`admin.users.actions.${action}.button`)}
              </Button>
            ))}
          </Group>
        )}
      </Section>

      <Section title={t('admin.users.secondFactors')}>
        {p.second_factors.length === 0
          ? empty('person-factors-empty')
          : (
            <DataTable rows={p.second_factors} rowKey={(row) => `${row.kind}:${row.name ?? ''}:${row.added_at ?? ''}`} testId="person-factors" rowTestId="person-factor" label={t('admin.users.secondFactors')}
              minWidth={420}
              columns={[
                { header: t('admin.users.factorKind'), cell: (row) => t(`admin.users.factorKinds.${row.kind}`) },
                { header: t('admin.users.factorName'), cell: (row) => row.name ?? '—' },
                { header: t('admin.users.added'), cell: (row) => date(row.added_at) },
              ]}
            />
          )}
      </Section>

      <Section title={t('admin.users.sessions')}>
        {p.sessions.length === 0
          ? empty('person-sessions-empty')
          : (
            <DataTable rows={p.sessions} rowKey={(row) => row.id} testId="person-sessions" rowTestId="person-session" label={t('admin.users.sessions')} minWidth={640}
              columns={[
                { header: t('admin.users.device'), cell: (row) => [row.browser, row.device].filter(Boolean).join(' · ') || '—' },
                { header: t('admin.users.place'), cell: (row) => [row.location, row.ip].filter(Boolean).join(' · ') || '—' },
                { header: t('admin.users.lastActive'), cell: (row) => date(row.last_active_at) },
              ]}
            />
          )}
      </Section>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Section title={t('admin.users.organizations')}>
          {lines(p.organizations, 'person-organizations-empty', (organization) => organization.id, (organization) => `${organization.name} · ${organization.role}`)}
        </Section>
        <Section title={t('admin.users.connectedApps')}>
          {lines(p.connected_apps, 'person-apps-empty', (app) => app.client_id, (app) => `${app.name} · ${app.scopes.join(' ')}`)}
        </Section>
        <Section title={t('admin.users.balances')}>
          {p.balances.map((balance) => (
            <Text key={balance.currency} size="sm">
              {balance.currency}: {balance.amount}
            </Text>
          ))}
        </Section>
        <Section title={t('admin.users.orders')}>
          {lines(p.orders, 'person-orders-empty', (order) => order.id, (order) => `${order.number} · ${order.plan} · ${order.total} ${order.currency} · ${order.status} · ${formatDate(order.created_at, language)}`)}
        </Section>
      </SimpleGrid>

      {pending && (
        <ReasonDialog
          opened
          title={t(`admin.users.actions.${pending}.title`)}
          body={t(`admin.users.actions.${pending}.body`, { email: p.email })}
          confirmLabel={t(`admin.users.actions.${pending}.button`)}
          danger={dangerous.has(pending)}
          onClose={() => setPending(null)}
          onConfirm={(reason) => act.mutateAsync({ action: pending, reason })}
        />
      )}
    </Stack>
  );
}
