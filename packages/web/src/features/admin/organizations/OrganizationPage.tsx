import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Badge.css';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { DetailFailed } from '../DetailFailed';
import { ReasonDialog } from '../ReasonDialog';
import { useOrganization, useVerifyDomain } from './api';

/** /admin/organizations/:organizationId: members, domains (verified by hand with a reason) and SSO status. */
export function OrganizationPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { organizationId = '' } = useParams();
  const organization = useOrganization(organizationId);
  const verify = useVerifyDomain(organizationId);
  const [verifying, setVerifying] = useState<string | null>(null);
  const back = (
    <Anchor component={Link} to="/admin/organizations">
      {t('admin.organizations.back')}
    </Anchor>
  );
  if (organization.isError) return <DetailFailed back={back} error={organization.error} />;
  const data = organization.data;
  if (!data) return null;
  const sso = data.sso_connection;
  return (
    <Stack gap="lg" data-testid="admin-organization">
      {back}
      <PageHeader title={data.name} description={t('admin.organizations.adminLine', { email: data.admin_email, date: formatDate(data.created_at, language) })} />
      <Section title={t('admin.organizations.ssoTitle')}>
        {sso ? (
          <Text data-testid="organization-sso">
            {t('admin.organizations.ssoLine', { kind: sso.kind.toUpperCase(), identifier: sso.identifier, idp: sso.idp ?? '—' })}{' '}
            <Badge variant="light" color={sso.require_sso ? 'blue' : 'gray'}>
              {sso.require_sso ? t('admin.organizations.ssoRequired') : t('admin.organizations.ssoOptional')}
            </Badge>
          </Text>
        ) : (
          <Text data-testid="organization-sso">{t('admin.organizations.noSso')}</Text>
        )}
      </Section>
      <Section title={t('admin.organizations.domainsTitle')}>
        {data.domains.length === 0 ? (
          <Text>{t('admin.organizations.noDomains')}</Text>
        ) : (
          <DataTable rows={data.domains} rowKey={(row) => row.domain} testId="domains-table" rowTestId="domains-row" minWidth={340}
            columns={[
              { header: t('admin.organizations.domain'), cell: (row) => row.domain },
              {
                header: t('admin.organizations.domainState'),
                cell: (row) => (
                  <Badge variant="light" color={row.verified_at ? 'green' : 'yellow'}>
                    {row.verified_at ? t('admin.organizations.verifiedBy', { how: t(`admin.organizations.how.${row.verified_by === 'dns' || row.verified_by === 'mailbox' || row.verified_by === 'operator' ? row.verified_by : 'other'}`) }) : t('admin.organizations.notVerified')}
                  </Badge>
                ),
              },
              { header: t('admin.organizations.claimed'), cell: (row) => formatDate(row.claimed_at, language) },
            ]}
            actions={{
              label: t('admin.organizations.actions'),
              cell: (row) =>
                row.verified_at ? null : (
                  <Button size="xs" variant="light" onClick={() => setVerifying(row.domain)} data-testid="domain-verify">
                    {t('admin.organizations.verify')}
                  </Button>
                ),
            }}
          />
        )}
      </Section>
      <Section title={t('admin.organizations.membersTitle', { count: data.members })}>
        <DataTable rows={data.member_list} rowKey={(row) => row.email} testId="members-table" rowTestId="members-row" minWidth={340}
          columns={[
            { header: t('admin.organizations.email'), cell: (row) => (row.user_id ? <Anchor component={Link} to={`/admin/people/${row.user_id}`}>{row.email}</Anchor> : row.email) },
            { header: t('admin.organizations.role'), cell: (row) => t(`admin.organizations.roles.${row.role}`) },
            { header: t('admin.organizations.joined'), cell: (row) => formatDate(row.joined_at, language) },
          ]}
        />
      </Section>
      <ReasonDialog
        opened={verifying !== null}
        title={t('admin.organizations.verifyTitle', { domain: verifying ?? '' })}
        body={t('admin.organizations.verifyBody', { name: data.name })}
        confirmLabel={t('admin.organizations.verify')}
        onClose={() => setVerifying(null)}
        onConfirm={(reason) => verify.mutateAsync({ domain: verifying!, reason })}
      />
    </Stack>
  );
}
