import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Switch.css';
import { useState, type ChangeEvent } from 'react';
import { Anchor, Button, Group, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ACCOUNT_DELETION_WINDOW_DAYS, paths } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { notify, notifyFailure } from '../../../lib/api';
import { downloadJson, fetchExport, useAuthorizedApps, usePrivacy, useSavePrivacy, type PrivacySettings } from './api';

/** /privacy: marketing mail and usage data, a copy of one's data, what deletion keeps, and the outside apps (OAuth consents). */
export function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('account.privacy.title')} description={t('account.privacy.description')} />
      <SettingsSection />
      <ExportSection />
      <Section title={t('account.privacy.retention.title')} description={t('account.privacy.retention.description', { days: ACCOUNT_DELETION_WINDOW_DAYS })} />
      <AuthorizedAppsSection />
    </Stack>
  );
}

function SettingsSection() {
  const { t } = useTranslation();
  const privacy = usePrivacy();
  const save = useSavePrivacy();

  const change = async (patch: Partial<PrivacySettings>) => {
    if (!privacy.data) return;
    try {
      await save.mutateAsync({ ...privacy.data, ...patch });
      notify('success', t('account.privacy.settings.saved'));
    } catch (error) {
      notifyFailure(error, t('account.privacy.settings.failed'));
    }
  };

  /** A setting's switch: its state, saved as soon as it is flipped (one save at a time). */
  const setting = (field: 'marketing_emails' | 'usage_data') => ({
    checked: privacy.data?.[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => void change({ [field]: event.currentTarget.checked }),
    disabled: save.isPending,
  });

  return (
    <Section title={t('account.privacy.settings.title')} description={t('account.privacy.settings.description')}>
      {privacy.data ? (
        <Stack gap="md" mt="xs">
          <Switch label={t('account.privacy.settings.marketing')} description={t('account.privacy.settings.marketingDescription')} {...setting('marketing_emails')} data-testid="privacy-marketing" />
          <Switch label={t('account.privacy.settings.usage')} description={t('account.privacy.settings.usageDescription')} {...setting('usage_data')} data-testid="privacy-usage" />
        </Stack>
      ) : (
        <Stack gap="md" mt="xs" aria-busy={privacy.isPending}>
          <Skeleton height={36} visible={privacy.isPending} />
          <Skeleton height={36} visible={privacy.isPending} />
        </Stack>
      )}
    </Section>
  );
}

function ExportSection() {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const download = async () => {
    setPending(true);
    try {
      const data = await fetchExport();
      downloadJson(data, `cystack-account-data-${new Date().toISOString().slice(0, 10)}.json`);
      notify('success', t('account.privacy.export.done'));
    } catch {
      // reported by the API client's policy
    } finally {
      setPending(false);
    }
  };
  return (
    <Section title={t('account.privacy.export.title')} description={t('account.privacy.export.description')}>
      <Group mt="xs">
        <Button variant="light" onClick={() => void download()} loading={pending} data-testid="download-data">
          {t('account.privacy.export.button')}
        </Button>
      </Group>
    </Section>
  );
}

/**
 * Which outside apps may use the account, named here; Account settings owns the list (scopes,
 * dates, Revoke), so this links there instead of repeating it.
 */
function AuthorizedAppsSection() {
  const { t } = useTranslation();
  const apps = useAuthorizedApps();
  return (
    <Section title={t('account.privacy.apps.title')} description={t('account.privacy.apps.description')}>
      <Stack gap={6} align="flex-start" data-testid="privacy-apps">
        {apps.isPending ? (
          <Skeleton height={20} width={240} />
        ) : (
          <Text size="sm" data-testid="privacy-apps-summary">
            {apps.data?.length
              ? t('account.privacy.apps.summary', { count: apps.data.length, apps: apps.data.map((app) => app.name).join(', ') })
              : t('account.privacy.apps.none')}
          </Text>
        )}
        <Anchor component={Link} to={paths.account} size="sm" fw={500} data-testid="privacy-apps-manage">
          {t('account.privacy.apps.manage')}
        </Anchor>
      </Stack>
    </Section>
  );
}
