import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { ProductGrid } from '../../components/ProductGrid';
import { useBrand } from '../../lib/runtime-context';
import { currentUser, peekSessionUser, useAuthState } from '../../lib/session';

/**
 * /login/explore: the product family, for signed-out visitors and after a sign-out. The route
 * has no guard, so nothing else asks who is here: the page asks itself, offering a signed-in
 * visitor their account rather than a sign-in, and neither before the answer.
 */
export function ExplorePage() {
  const { t } = useTranslation();
  const brand = useBrand();
  const { loggedIn, user } = useAuthState();
  const [known, setKnown] = useState(() => peekSessionUser() !== undefined);

  useEffect(() => {
    if (known) return;
    // A failure (the API down) leaves the signed-out offer: signing in says what is wrong.
    void currentUser()
      .catch(() => null)
      .finally(() => setKnown(true));
  }, [known]);

  return (
    <Stack gap="lg" py="md">
      <PageHeader title={t('explore.title', { brand: brand.name })} description={t('explore.description', { brand: brand.name })} />
      {known && loggedIn && (
        <Group gap="sm" data-testid="explore-signed-in">
          <Text size="sm">{t('explore.signedInAs', { name: user?.full_name ?? '' })}</Text>
          <Button component={Link} to={paths.home} data-testid="explore-account">
            {t('explore.openAccount')}
          </Button>
        </Group>
      )}
      {known && !loggedIn && (
        <Group gap="sm">
          <Button component={Link} to={paths.login} data-testid="explore-sign-in">
            {t('explore.signIn')}
          </Button>
          <Button component={Link} to={paths.register} variant="default">
            {t('auth.login.createAccount')}
          </Button>
        </Group>
      )}
      <ProductGrid openLabel={(service) => t('explore.open', { service })} cols={{ base: 1, xs: 2 }} />
    </Stack>
  );
}
