import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, PEOPLE_SEARCH_MAX_LENGTH, peopleSearchFields, type PeopleSearchField, type PersonSummary } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { errorText, type ApiError } from '../../../lib/api';
import { useLanguage } from '../../../lib/use-language';
import { usePeopleSearch } from './api';
import { StatusBadge } from './StatusBadge';

type ByChoice = PeopleSearchField | 'auto';

/** /admin/people: find a person by the start of their email, username or name, or by their id. */
export function PeoplePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [draft, setDraft] = useState('');
  const [by, setBy] = useState<ByChoice>('auto');
  const [applied, setApplied] = useState<{ q: string; by: ByChoice }>({ q: '', by: 'auto' });
  // Keyset paging: the cursors of the pages walked through, the first page's is none.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const search = usePeopleSearch(applied.q, applied.by === 'auto' ? undefined : applied.by, cursors.at(-1));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied({ q: draft.trim(), by });
    setCursors([undefined]);
  };
  const people = search.data?.people ?? [];
  return (
    <Stack gap="lg" data-testid="admin-people">
      <PageHeader title={t('admin.people.title')} description={t('admin.people.description')} />
      <Section title={t('admin.people.searchTitle')}>
        <form onSubmit={submit} noValidate role="search">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label={t('admin.people.query')}
              type="search"
              value={draft}
              maxLength={PEOPLE_SEARCH_MAX_LENGTH}
              onChange={(event) => setDraft(event.currentTarget.value)}
              style={{ flex: '1 1 16rem' }}
              data-testid="people-query"
            />
            <NativeSelect
              label={t('admin.people.by')}
              value={by}
              onChange={(event) => setBy(event.currentTarget.value as ByChoice)}
              data={(['auto', ...peopleSearchFields] as const).map((value) => ({ value, label: t(`admin.people.fields.${value}`) }))}
              data-testid="people-by"
            />
            <Button type="submit" disabled={!draft.trim()} data-testid="people-search">
              {t('admin.people.search')}
            </Button>
          </Group>
        </form>
      </Section>
      {search.isError && (
        <Alert color="red" role="alert" data-testid="people-error">
          {errorText(search.error as ApiError)}
        </Alert>
      )}
      {search.data && (
        <Text size="sm" c="dimmed" data-testid="people-searched-by">
          {t('admin.people.searchedBy', { field: t(`admin.people.fields.${search.data.by}`) })}
        </Text>
      )}
      {search.data && people.length === 0 && <Text data-testid="people-empty">{t('admin.people.empty')}</Text>}
      {people.length > 0 && (
        <DataTable<PersonSummary>
          rows={people}
          rowKey={(row) => row.id}
          testId="people-table"
          rowTestId="people-row"
          label={t('admin.people.results')}
          minWidth={720}
          columns={[
            {
              header: t('admin.people.columns.email'),
              cell: (row) => (
                <Anchor component={Link} to={`/admin/people/${row.id}`} data-testid="people-open">
                  {row.email}
                </Anchor>
              ),
            },
            { header: t('admin.people.columns.name'), cell: (row) => row.full_name },
            { header: t('admin.people.columns.username'), cell: (row) => row.username ?? '—' },
            { header: t('admin.people.columns.status'), cell: (row) => <StatusBadge status={row.status} /> },
            { header: t('admin.people.columns.created'), cell: (row) => formatDate(row.created_at, language) },
          ]}
        />
      )}
      {(cursors.length > 1 || search.data?.next_cursor) && (
        <Group gap="sm">
          <Button variant="default" disabled={cursors.length <= 1} onClick={() => setCursors((current) => current.slice(0, -1))}>
            {t('admin.people.previous')}
          </Button>
          <Button variant="default" disabled={!search.data?.next_cursor} onClick={() => setCursors((current) => [...current, search.data?.next_cursor ?? undefined])} data-testid="people-next">
            {t('admin.people.next')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
