import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NEXT_PARAM, paths, type CompanySsoLinkConfirmed } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { ApiError, errorText, notify } from '../../lib/api';
import { forgetSession } from '../../lib/session';
import { fetchPendingSsoLink, pendingSsoLinkQueryKey, useConfirmSsoLink } from './api';
import { PageLoading } from '../../components/LoadingIndicator';
import { FailureAlert } from '../../components/FailureAlert';

/**
 * /organization/sso/link: an organization's identity provider named the email of this existing
 * account, and the server linked nothing. Its owner, signed in their own way, reads whose
 * provider it is and confirms (the account then signs in with it and joins the organization),
 * or leaves it. Joined where SSO is required, the session they confirmed on has ended: they go
 * to company SSO sign-in, told why, with their email filled in, and come back to /organization.
 */
export function SsoLinkPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pending = useQuery({ queryKey: pendingSsoLinkQueryKey, queryFn: fetchPendingSsoLink, retry: false });
  const confirm = useConfirmSsoLink();
  const [failure, setFailure] = useState<string | null>(null);

  const goOnAfter = (linked: CompanySsoLinkConfirmed) => {
    if (!linked.sso_required) return navigate(paths.organization);
    // Signed out here first: the guard keeps signed-in people off the sign-in pages.
    forgetSession();
    const search = new URLSearchParams({ [NEXT_PARAM]: paths.organization });
    return navigate(`${paths.loginSso}?${search}`, { state: { identifier: linked.email, reason: 'sso.required' } });
  };

  if (pending.isPending) {
    return <PageLoading />;
  }
  return (
    <Stack gap="lg">
      <PageHeader title={t('organizations.ssoLink.title')} />
      {pending.data ? (
        <Stack gap="md" data-testid="sso-link">
          <Text>{t('organizations.ssoLink.question', { organization: pending.data.organization_name, email: pending.data.email })}</Text>
          <Text size="sm" c="dimmed">
            {t('organizations.ssoLink.consequence', { organization: pending.data.organization_name })}
          </Text>
          <FailureAlert failure={failure} />
          <Group>
            <Button
              loading={confirm.isPending}
              onClick={() => {
                setFailure(null);
                confirm.mutateAsync([]).then(
                  (linked) => {
                    notify('success', t('organizations.ssoLink.linked', { organization: linked.organization_name }));
                    void goOnAfter(linked);
                  },
                  (error: unknown) => {
                    if (!(error instanceof ApiError)) throw error;
                    setFailure(errorText(error));
                  },
                );
              }}
            >
              {t('organizations.ssoLink.confirm')}
            </Button>
            <Button variant="default" onClick={() => void navigate(paths.home)}>
              {t('organizations.ssoLink.cancel')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Alert color="gray" variant="light" data-testid="sso-link-none">
          {pending.error instanceof ApiError ? errorText(pending.error) : t('errors.something_went_wrong')}
        </Alert>
      )}
    </Stack>
  );
}
