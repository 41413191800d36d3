import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/SimpleGrid.css';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, MultiSelect, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { auditActions, formatDateTime, type AuditEvent, type AuditFilterQuery } from '@portal/contracts';
import { NameCell } from '../../components/cells';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { ApiError, errorText } from '../../lib/api';
import { downloadAuditCsv, useAdministeredOrganizations, useAuditEvents } from './api';
import { useLanguage } from '../../lib/use-language';
import { LoadingIndicator, PageLoading } from '../../components/LoadingIndicator';

interface Draft {
  actions: string[];
  email: string;
  from: string;
  to: string;
}

const emptyDraft: Draft = { actions: [], email: '', from: '', to: '' };
const toQuery = (draft: Draft): AuditFilterQuery => ({ action: draft.actions.join(','), email: draft.email, from: draft.from, to: draft.to });

/** A list that could not be read: says so, with the button that tries again. */
function LoadFailed({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" data-testid="audit-log-error">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('audit.loadFailed')}</Text>
        <Button size="xs" variant="light" onClick={onRetry}>
          {t('audit.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** What the entry's details say, in words: the sign-in method, why it failed, the passkey, the role. */
function detailLines(event: AuditEvent, t: TFunction): string[] {
  const lines: string[] = [];
  const rest: string[] = [];
  for (const [key, value] of Object.entries(event.detail)) {
    if (value === null || value === '') continue;
    const text = String(value);
    if (key === 'method' && (event.action === 'sign_in' || event.action === 'sign_in_failed')) lines.push(t('audit.method', { method: t(`audit.methods.${text}`, { defaultValue: text }) }));
    else if (key === 'method' && event.action === 'sso_domain_verified') lines.push(t('audit.ssoVerifiedBy', { method: t(`audit.ssoVerifiedMethods.${text}`, { defaultValue: text }) }));
    else if (key === 'method') lines.push(t('audit.twoStepMethod', { method: text }));
    else if (key === 'mfa') {
      if (value === true) lines.push(t('audit.withMfa'));
    } else if (key === 'reason') lines.push(t('audit.reason', { reason: t(`audit.reasons.${text}`, { defaultValue: text }) }));
    else if (key === 'name') lines.push(t('audit.passkey', { name: text }));
    else if (key === 'role') lines.push(t('audit.role', { role: text }));
    else if (key === 'previous_role') lines.push(t('audit.previousRole', { role: text }));
    else if (key === 'protocol') lines.push(t('audit.ssoProtocol', { protocol: t(`audit.ssoProtocols.${text}`, { defaultValue: text }) }));
    else if (key === 'previous_protocol') lines.push(t('audit.ssoPreviousProtocol', { protocol: t(`audit.ssoProtocols.${text}`, { defaultValue: text }) }));
    else if (key === 'identifier') lines.push(t('audit.ssoIdentifier', { identifier: text }));
    else if (key === 'previous_identifier') lines.push(t('audit.ssoPreviousIdentifier', { identifier: text }));
    else if (key === 'require_sso') lines.push(t(value === true ? 'audit.ssoRequired' : 'audit.ssoNotRequired'));
    else if (key === 'domain') lines.push(t('audit.ssoDomain', { domain: text }));
    else rest.push(`${key}: ${text}`);
  }
  return [...lines, ...rest];
}

/** A 400's field errors, worded in the language shown (`errors.<code>` with its parameters). */
/** Who an event is about, and who did it when that is someone else: one element, as a phone card's cell is. */
function PersonCell({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  const person = event.target_email ?? event.actor_email;
  const actor = event.actor_email && event.actor_email !== person ? event.actor_email : null;
  return <NameCell name={person ?? '—'} detail={actor && t('audit.by', { email: actor })} />;
}

function fieldErrors(error: unknown, t: TFunction): Partial<Record<'action' | 'email' | 'from' | 'to' | 'cursor', string>> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const fields = (error.details?.fields ?? {}) as Record<string, { code: string; message: string; params?: Record<string, string | number> }>;
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, t(`errors.${field.code}`, { ...field.params, defaultValue: field.message })]));
}

/** /organization/audit-log: the organization's audit log for its owners and admins, with filters, paging and CSV export. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const administered = useAdministeredOrganizations();
  const [chosen, setChosen] = useState<string | null>(null);
  const organizations = administered.data?.items ?? [];
  const organization = organizations.find((item) => item.id === chosen) ?? organizations[0];
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [applied, setApplied] = useState<AuditFilterQuery>(toQuery(emptyDraft));
  // Keyset paging: the cursors of the pages walked through, the first page's is none.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const events = useAuditEvents(organization?.id, applied, cursors.at(-1));
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);

  const apply = (next: Draft) => {
    setApplied(toQuery(next));
    setCursors([undefined]);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  const exportCsv = async () => {
    if (!organization) return;
    setExporting(true);
    setExportFailed(false);
    try {
      await downloadAuditCsv(organization.id, applied);
    } catch {
      setExportFailed(true);
    } finally {
      setExporting(false);
    }
  };

  if (administered.isPending) {
    return <PageLoading />;
  }
  if (administered.isError) {
    return (
      <Stack gap="lg">
        <PageHeader title={t('audit.title')} />
        <LoadFailed onRetry={() => void administered.refetch()} />
      </Stack>
    );
  }
  if (!organization) {
    return (
      <Stack gap="lg">
        <PageHeader title={t('audit.title')} />
        <Alert color="red" variant="light" role="alert" data-testid="audit-log-refused">
          <Text size="sm" fw={500}>
            {t('errors.audit.not_admin')}
          </Text>
          <Text size="sm">{t('audit.notAdmin')}</Text>
        </Alert>
      </Stack>
    );
  }

  const errors = fieldErrors(events.error, t);
  const apiError = events.error instanceof ApiError ? events.error : null;
  const page = events.data;

  return (
    <Stack gap="lg">
      <PageHeader title={t('audit.title')} description={t('audit.description', { organization: organization.name })} />
      {organizations.length > 1 && (
        <Select
          label={t('audit.organization')}
          data={organizations.map((item) => ({ value: item.id, label: item.name }))}
          value={organization.id}
          onChange={(value) => {
            setChosen(value);
            setCursors([undefined]);
          }}
          allowDeselect={false}
          maw={360}
        />
      )}
      <Section title={t('audit.filters')}>
        <form onSubmit={submit} noValidate data-testid="audit-filters">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
              <MultiSelect
                label={t('audit.actions')}
                placeholder={draft.actions.length ? undefined : t('audit.actionsPlaceholder')}
                data={auditActions.map((action) => ({ value: action, label: t(`audit.actionNames.${action}`) }))}
                value={draft.actions}
                onChange={(actions) => setDraft({ ...draft, actions })}
                error={errors.action}
                clearable
                searchable
                data-testid="audit-filter-actions"
              />
              <TextInput
                label={t('audit.person')}
                placeholder={t('audit.personPlaceholder')}
                value={draft.email}
                onChange={(event) => setDraft({ ...draft, email: event.currentTarget.value })}
                error={errors.email}
                maxLength={254}
                data-testid="audit-filter-email"
              />
              <TextInput type="date" label={t('audit.from')} value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })} error={errors.from} data-testid="audit-filter-from" />
              <TextInput type="date" label={t('audit.to')} value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })} error={errors.to} data-testid="audit-filter-to" />
            </SimpleGrid>
            <Group justify="space-between">
              <Group gap="xs">
                <Button type="submit" data-testid="audit-apply">
                  {t('audit.apply')}
                </Button>
                <Button
                  variant="default"
                  onClick={() => {
                    setDraft(emptyDraft);
                    apply(emptyDraft);
                  }}
                >
                  {t('audit.reset')}
                </Button>
              </Group>
              <Button variant="light" onClick={() => void exportCsv()} loading={exporting} data-testid="audit-export">
                {t('audit.export')}
              </Button>
            </Group>
            {exportFailed && (
              <Text size="sm" c="red.8" role="alert">
                {t('audit.exportFailed')}
              </Text>
            )}
          </Stack>
        </form>
      </Section>

      <Section title={t('audit.title')}>
        {apiError?.status === 403 ? (
          <Alert color="red" variant="light" role="alert" data-testid="audit-log-refused">
            {errorText(apiError)}
          </Alert>
        ) : apiError?.status === 400 ? (
          <Alert color="yellow" variant="light" role="alert" data-testid="audit-filter-error">
            {Object.values(errors).join(' ') || errorText(apiError)}
          </Alert>
        ) : events.isError ? (
          <LoadFailed onRetry={() => void events.refetch()} />
        ) : !page ? (
          <Group justify="center" py="md">
            <LoadingIndicator />
          </Group>
        ) : page.items.length === 0 ? (
          <Text size="sm" c="dimmed" py="sm" data-testid="audit-empty">
            {t('audit.empty')}
          </Text>
        ) : (
          <DataTable rows={page.items} rowKey={(event) => event.id} minWidth={760} highlightOnHover
            busy={events.isFetching}
            testId="audit-table"
            rowTestId="audit-row"
            rowProps={(event) => ({ 'data-action': event.action })}
            columns={[
              {
                header: t('audit.columns.time'),
                cell: (event) => (
                  <Text size="sm" component="time" dateTime={event.occurred_at}>
                    {formatDateTime(event.occurred_at, language)}
                  </Text>
                ),
              },
              {
                header: t('audit.columns.action'),
                cell: (event) => (
                  <Text size="sm" fw={500} c={event.action === 'sign_in_failed' ? 'red.8' : undefined}>
                    {t(`audit.actionNames.${event.action}`)}
                  </Text>
                ),
              },
              { header: t('audit.columns.person'), cell: (event) => <PersonCell event={event} /> },
              { header: t('audit.columns.ip'), text: (event) => event.ip ?? '—', mono: true },
              {
                header: t('audit.columns.details'),
                // One element: on a phone card the cell is one grid cell beside its label.
                cell: (event) => (
                  <Stack gap={0}>
                    {detailLines(event, t).map((line) => (
                      <Text key={line} size="sm">
                        {line}
                      </Text>
                    ))}
                    {event.user_agent && (
                      <Text size="xs" c="dimmed" lineClamp={1} title={event.user_agent} maw={320}>
                        {event.user_agent}
                      </Text>
                    )}
                  </Stack>
                ),
              },
            ]}
          />
        )}
        {page && (cursors.length > 1 || page.next_cursor) && (
          <Group justify="space-between" mt="sm">
            <Button variant="default" size="xs" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))} data-testid="audit-newer">
              {t('audit.newer')}
            </Button>
            <Text size="sm" c="dimmed">
              {t('audit.pageNumber', { page: cursors.length })}
            </Text>
            <Button variant="default" size="xs" disabled={!page.next_cursor} onClick={() => page.next_cursor && setCursors([...cursors, page.next_cursor])} data-testid="audit-older">
              {t('audit.older')}
            </Button>
          </Group>
        )}
      </Section>
    </Stack>
  );
}
