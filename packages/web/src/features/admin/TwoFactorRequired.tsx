import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';

/** An operator whose account has no second factor: the console stays shut until they turn one on. */
export function TwoFactorRequired() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" py="xl" data-testid="admin-two-factor-required">
      <Title order={1} fz="h2">
        {t('admin.twoFactor.title')}
      </Title>
      <Text>{t('admin.twoFactor.body')}</Text>
      <Button component={Link} to={paths.securityTwoStep} w="fit-content">
        {t('admin.twoFactor.action')}
      </Button>
    </Stack>
  );
}
