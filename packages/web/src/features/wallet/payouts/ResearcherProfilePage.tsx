import '@mantine/core/styles/Paper.css';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import type { ResearcherProfile } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { LoadingIndicator } from '../../../components/LoadingIndicator';
import { PageHeader } from '../../../components/PageHeader';
import { fetchResearcherProfile } from './api';

/** /researchers/:username: a researcher's public profile (display name, accepted programs), without sign-in; nothing private. */
export function ResearcherProfilePage() {
  const { t } = useTranslation();
  const { username = '' } = useParams();
  // undefined while loading, null when there is no public profile by this name.
  const [profile, setProfile] = useState<ResearcherProfile | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    setProfile(undefined);
    fetchResearcherProfile(username).then(
      (found) => current && setProfile(found),
      () => current && setProfile(null),
    );
    return () => {
      current = false;
    };
  }, [username]);
  if (profile === undefined) return <LoadingIndicator />;
  if (!profile) {
    return (
      <Stack gap="lg" py="md">
        <PageHeader title={t('wallet.payouts.researcher.title')} />
        <Text data-testid="researcher-not-found">{t('wallet.payouts.researcher.notFound')}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="lg" py="md" data-testid="researcher-profile">
      <PageHeader title={profile.display_name} description={`${t('wallet.payouts.researcher.description')} · @${profile.username}`} />
      <Paper withBorder p="lg">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t('wallet.payouts.researcher.programs')}
          </Text>
          <Title order={2} data-testid="researcher-programs">
            {profile.accepted_programs}
          </Title>
          <Text size="sm" c="dimmed">
            {t('wallet.payouts.researcher.programsHint')}
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
