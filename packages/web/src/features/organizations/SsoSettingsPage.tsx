import '@mantine/core/styles/Alert.css';
import { Alert, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { ApiError } from '../../lib/api';
import { fetchSsoSettings, ssoSettingsQueryKey } from './api';
import { DomainsSection } from './sso/DomainsSection';
import { ProviderSection } from './sso/ProviderSection';
import { RegistrationSection } from './sso/RegistrationSection';
import { RequireSection } from './sso/RequireSection';
import { LoadingIndicator } from '../../components/LoadingIndicator';

/**
 * /organization/sso: the organization's company SSO for its owners and admins: the SSO
 * identifier and identity provider (the OpenID Connect secret is write-only), require-SSO, and
 * the email domains with their TXT records. The server checks the role and asks for a recent
 * proof of identity before changing the provider, require-SSO or a domain's proof.
 */
export function SsoSettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: ssoSettingsQueryKey, queryFn: fetchSsoSettings, retry: false });

  if (settings.isPending) {
    return (
      <Group justify="center" py="xl">
        <LoadingIndicator />
      </Group>
    );
  }
  if (!settings.data) {
    const refused = settings.error instanceof ApiError && (settings.error.code === 'organizations.forbidden' || settings.error.code === 'organizations.not_member');
    return (
      <Stack gap="lg">
        <PageHeader title={t('organizations.sso.title')} />
        <Alert color={refused ? 'gray' : 'red'} variant="light" role={refused ? undefined : 'alert'} data-testid="sso-settings-refused">
          {refused ? t('organizations.sso.adminsOnly') : t('organizations.sso.loadFailed')}
        </Alert>
      </Stack>
    );
  }
  const data = settings.data;
  return (
    <Stack gap="lg">
      <PageHeader title={t('organizations.sso.title')} description={t('organizations.sso.description', { name: data.organization.name })} />
      <ProviderSection settings={data} />
      {data.registration && <RegistrationSection settings={data} />}
      <RequireSection settings={data} />
      <DomainsSection domains={data.domains} />
    </Stack>
  );
}
