import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/SimpleGrid.css';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, type OperatorAuditEvent } from '@portal/contracts';
import { NameCell } from '../../components/cells';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useLanguage } from '../../lib/use-language';
import { useCursorPages } from './cursor-pages';
import { downloadOperatorAuditCsv, useOperatorAudit, type OperatorAuditFilters } from './api';
import { ListResults } from './ListResults';

interface Draft {
  actor: string;
  action: string;
  target: string;
  /** Days as the date inputs hold them (YYYY-MM-DD), whole days in UTC. */
  from: string;
  to: string;
}

const emptyDraft: Draft = { actor: '', action: '', target: '', from: '', to: '' };

/** The days picked, as the instants the API filters on: from the start of the first to the end of the last (UTC). */
const toFilters = (draft: Draft): OperatorAuditFilters => ({
  actor: draft.actor,
  action: draft.action,
  target: draft.target,
  from: draft.from ? `${draft.from}T00:00:00Z` : '',
  to: draft.to ? `${draft.to}T23:59:59.999Z` : '',
});

/** /admin/audit: every change an operator made, newest first, with filters, paging and a CSV export. */
export function AuditPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [applied, setApplied] = useState<OperatorAuditFilters>(toFilters(emptyDraft));
  const pages = useCursorPages();
  const [downloadFailed, setDownloadFailed] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const events = useOperatorAudit(applied, pages.cursor);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(toFilters(draft));
    pages.first();
  };
  const clear = () => {
    setDraft(emptyDraft);
    setApplied(toFilters(emptyDraft));
    pages.first();
  };
  const download = async () => {
    setDownloading(true);
    setDownloadFailed(false);
    try {
      await downloadOperatorAuditCsv(applied);
    } catch {
      setDownloadFailed(true);
    } finally {
      setDownloading(false);
    }
  };
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      const value = event.currentTarget.value;
      setDraft((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <Stack gap="lg" data-testid="admin-audit">
      <PageHeader title={t('admin.audit.title')} description={t('admin.audit.description')} />
      <Section title={t('admin.audit.filters')}>
        <form onSubmit={apply} noValidate>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            <TextInput label={t('admin.audit.actor')} type="search" {...field('actor')} data-testid="audit-filter-actor" />
            <TextInput label={t('admin.audit.action')} type="search" {...field('action')} data-testid="audit-filter-action" />
            <TextInput label={t('admin.audit.target')} type="search" {...field('target')} data-testid="audit-filter-target" />
            <TextInput label={t('admin.audit.from')} type="date" {...field('from')} data-testid="audit-filter-from" />
            <TextInput label={t('admin.audit.to')} type="date" {...field('to')} data-testid="audit-filter-to" />
          </SimpleGrid>
          <Group mt="md" gap="sm">
            <Button type="submit" data-testid="audit-apply">
              {t('admin.audit.apply')}
            </Button>
            <Button variant="default" onClick={clear}>
              {t('admin.audit.clear')}
            </Button>
            <Button variant="light" onClick={() => void download()} loading={downloading} data-testid="audit-download">
              {t('admin.audit.download')}
            </Button>
          </Group>
        </form>
      </Section>
      {downloadFailed && (
        <Alert color="red" role="alert">
          {t('admin.audit.downloadFailed')}
        </Alert>
      )}
      <ListResults query={events} rows={events.data?.events} failed={t('admin.audit.loadFailed')} failedTestId="audit-load-failed" empty={t('admin.audit.empty')} emptyTestId="audit-empty">
        {(rows) => (
          <DataTable<OperatorAuditEvent> rows={rows} rowKey={(row) => row.id} testId="audit-table" rowTestId="audit-row" label={t('admin.audit.title')} minWidth={880}
            columns={[
              { header: t('admin.audit.columns.when'), cell: (row) => formatDateTime(row.occurred_at, language) },
              {
                header: t('admin.audit.columns.who'),
                cell: (row) => <NameCell name={row.actor_email ?? '—'} detail={row.via !== 'session' && t('admin.audit.viaKey', { key: row.via.replace(/^key:/, '') })} />,
              },
              {
                header: t('admin.audit.columns.what'),
                cell: (row) => <NameCell name={row.action} mono detail={row.summary} />,
              },
              {
                header: t('admin.audit.columns.target'),
                cell: (row) => (
                  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {Object.entries(row.target)
                      .map(([key, value]) => `${key}: ${value}`)
                      .join(', ') || '—'}
                  </Text>
                ),
              },
              { header: t('admin.audit.columns.reason'), text: (row) => row.reason },
              { header: t('admin.audit.columns.address'), cell: (row) => row.ip ?? '—' },
            ]}
          />
        )}
      </ListResults>
      <Group gap="sm">
        {pages.hasPrevious && (
          <Button variant="default" onClick={pages.first}>
            {t('admin.audit.first')}
          </Button>
        )}
        {events.data?.next_cursor && (
          <Button variant="default" onClick={() => pages.next(events.data!.next_cursor!)} data-testid="audit-more">
            {t('admin.audit.more')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
