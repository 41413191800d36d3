import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, NativeSelect, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, PEOPLE_SEARCH_MAX_LENGTH, peopleSearchFields, type PeopleSearchField, type PersonSummary } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { CursorPager } from '../CursorPager';
import { useCursorPages } from '../cursor-pages';
import { LoadFailed } from '../LoadFailed';
import { SearchForm } from '../SearchForm';
import { usePeopleSearch } from './api';
import { StatusBadge } from './StatusBadge';

type ByChoice = PeopleSearchField | 'auto';

/** /admin/people: find a person by the start of their email, username or name, or by their id. */
export function PeoplePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [by, setBy] = useState<ByChoice>('auto');
  const [applied, setApplied] = useState<{ q: string; by: ByChoice }>({ q: '', by: 'auto' });
  const pages = useCursorPages();
  const search = usePeopleSearch(applied.q, applied.by === 'auto' ? undefined : applied.by, pages.cursor);

  const submit = (q: string) => {
    setApplied({ q, by });
    pages.first();
  };
  const people = search.data?.people ?? [];
  return (
    <Stack gap="lg" data-testid="admin-people">
      <PageHeader title={t('admin.users.title')} description={t('admin.users.description')} />
      <Section title={t('admin.users.searchTitle')}>
        <SearchForm
          label={t('admin.users.query')}
          onSearch={submit}
          maxLength={PEOPLE_SEARCH_MAX_LENGTH}
          needsText
          inputTestId="people-query"
          buttonLabel={t('admin.users.search')}
          buttonTestId="people-search"
        >
          <NativeSelect
            label={t('admin.users.by')}
            value={by}
            onChange={(event) => setBy(event.currentTarget.value as ByChoice)}
            data={(['auto', ...peopleSearchFields] as const).map((value) => ({ value, label: t(`admin.users.fields.${value}`) }))}
            data-testid="people-by"
          />
        </SearchForm>
      </Section>
      <LoadFailed when={search.isError} error={search.error} testId="people-error" />
      {search.data && (
        <Text size="sm" c="dimmed" data-testid="people-searched-by">
          {t('admin.users.searchedBy', { field: t(`admin.users.fields.${search.data.by}`) })}
        </Text>
      )}
      {search.data && people.length === 0 && <Text data-testid="people-empty">{t('admin.users.empty')}</Text>}
      {people.length > 0 && (
        <DataTable<PersonSummary> rows={people} rowKey={(row) => row.id} testId="people-table" rowTestId="people-row" label={t('admin.users.results')} minWidth={720}
          columns={[
            {
              header: t('admin.users.columns.email'),
              cell: (row) => (
                <Anchor component={Link} to={`/admin/people/${row.id}`} data-testid="people-open">
                  {row.email}
                </Anchor>
              ),
            },
            { header: t('admin.users.columns.name'), cell: (row) => row.full_name },
            { header: t('admin.users.columns.username'), cell: (row) => row.username ?? '—' },
            { header: t('admin.users.columns.status'), cell: (row) => <StatusBadge status={row.status} /> },
            { header: t('admin.users.columns.created'), cell: (row) => formatDate(row.created_at, language) },
          ]}
        />
      )}
      <CursorPager pages={pages} nextCursor={search.data?.next_cursor} previousLabel={t('admin.users.previous')} nextLabel={t('admin.users.next')} nextTestId="people-next" />
    </Stack>
  );
}
