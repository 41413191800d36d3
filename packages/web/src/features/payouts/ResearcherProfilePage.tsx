import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Paper.css';
import { Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useResearcherProfile } from './api';

/** /researchers/:username: a researcher's public profile (display name, accepted programs), without sign-in; nothing private. */
export function ResearcherProfilePage() {
  const { t } = useTranslation();
  const { username = '' } = useParams();
  const profile = useResearcherProfile(username);
  if (profile.isPending) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (!profile.data) {
    return (
      <Stack gap="lg" py="md">
        <PageHeader title={t('researcher.title')} />
        <Text data-testid="researcher-not-found">{t('researcher.notFound')}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="lg" py="md" data-testid="researcher-profile">
      <PageHeader title={profile.data.display_name} description={`${t('researcher.description')} · @${profile.data.username}`} />
      <Paper withBorder p="lg">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t('researcher.programs')}
          </Text>
          <Title order={2} data-testid="researcher-programs">
            {profile.data.accepted_programs}
          </Title>
          <Text size="sm" c="dimmed">
            {t('researcher.programsHint')}
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
