import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { ListResults } from '../ListResults';
import { SearchForm } from '../SearchForm';
import { useOrganizationSearch } from './api';

/** /admin/organizations: find an organization by name, id, domain or a member's email. */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [q, setQ] = useState('');
  const search = useOrganizationSearch(q);
  return (
    <Stack gap="lg" data-testid="admin-organizations">
      <PageHeader title={t('admin.organizations.title')} description={t('admin.organizations.description')} />
      <Section title={t('admin.organizations.searchTitle')}>
        <SearchForm
          label={t('admin.organizations.query')}
          onSearch={setQ}
          inputTestId="organizations-query"
          buttonLabel={t('admin.organizations.search')}
          buttonTestId="organizations-search"
        />
      </Section>
      <ListResults query={search} rows={search.data?.organizations} empty={t('admin.organizations.empty')}>
        {(rows) => (
          <DataTable rows={rows} rowKey={(row) => row.id} testId="organizations-table" rowTestId="organizations-row" label={t('admin.organizations.results')} minWidth={340}
            columns={[
              {
                header: t('admin.organizations.name'),
                cell: (row) => (
                  <Anchor component={Link} to={`/admin/organizations/${row.id}`} data-testid="organization-open">
                    {row.name}
                  </Anchor>
                ),
              },
              { header: t('admin.organizations.admin'), cell: (row) => row.admin_email },
              { header: t('admin.organizations.members'), cell: (row) => row.members },
              { header: t('admin.organizations.verifiedDomains'), cell: (row) => row.verified_domains },
              { header: t('admin.organizations.sso'), cell: (row) => (row.sso ? row.sso.toUpperCase() : t('admin.organizations.noSso')) },
              { header: t('admin.organizations.created'), cell: (row) => formatDate(row.created_at, language) },
            ]}
          />
        )}
      </ListResults>
    </Stack>
  );
}
