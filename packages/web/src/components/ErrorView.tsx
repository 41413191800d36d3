import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';

interface ErrorViewProps {
  status: number;
  message: string;
}

/** Status, message and the way back home: the body of every error page. */
export function ErrorView({ status, message }: ErrorViewProps) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="sm" py="xl" ta="center">
      <Text fz={64} fw={700} lh={1} c="dimmed" data-testid="error-status" aria-label={`${t('errorPage.statusLabel')} ${status}`}>
        {status}
      </Text>
      <Title order={1} fz="h2">
        {message}
      </Title>
      <Anchor component={Link} to={paths.home} mt="md">
        {t('errorPage.backHome')}
      </Anchor>
    </Stack>
  );
}
