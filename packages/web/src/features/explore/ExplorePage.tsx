import '@mantine/core/styles/Button.css';
import { Button, Group, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { ProductGrid } from '../../components/ProductGrid';
import { useAuthState } from '../../lib/session';

/** /login/explore: the product family, for signed-out visitors and after a sign-out. */
export function ExplorePage() {
  const { t } = useTranslation();
  const { loggedIn } = useAuthState();
  return (
    <Stack gap="lg" py="md">
      <PageHeader title={t('explore.title')} description={t('explore.description')} />
      {!loggedIn && (
        <Group gap="sm">
          <Button component={Link} to={paths.login} data-testid="explore-sign-in">
            {t('explore.signIn')}
          </Button>
          <Button component={Link} to={paths.register} variant="default">
            {t('login.createAccount')}
          </Button>
        </Group>
      )}
      <ProductGrid openLabel={(service) => t('explore.open', { service })} cols={{ base: 1, xs: 2 }} />
    </Stack>
  );
}
