import '@mantine/core/styles/SimpleGrid.css';
import { Anchor, SimpleGrid, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { accountSections } from '../../lib/account-sections';
import { useAuthState } from '../../lib/session';

/** / (signed in): greeting and the way into each account section. */
export function HomePage() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const sections = accountSections.filter((section) => section.to !== paths.home);
  return (
    <Stack gap="lg">
      <PageHeader title={t('home.title', { name: user?.full_name ?? '' })} description={t('home.description')} />
      <nav aria-label={t('home.sections')}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          {sections.map((section) => (
            <Anchor key={section.to} component={Link} to={section.to} fw={500}>
              {t(section.label)}
            </Anchor>
          ))}
        </SimpleGrid>
      </nav>
    </Stack>
  );
}
