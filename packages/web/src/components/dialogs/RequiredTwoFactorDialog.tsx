import './styles';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from './Dialog';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';

export interface RequiredTwoFactorDialogProps {
  opened: boolean;
  onClose(): void;
  /** What the user was about to do, when the default words are not enough. */
  body?: string;
}

/**
 * For actions that need two-step verification on (the spec's permissions: a WHC transfer): says
 * why, and leads to /security/two-step-verification. Shown when the account has no method,
 * or when the server answers auth.two_factor_required.
 */
export function RequiredTwoFactorDialog({ opened, onClose, body }: RequiredTwoFactorDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog opened={opened} onClose={onClose} title={t('mfa.required.title')}>
      <Stack gap="md" data-testid="required-two-factor">
        <Text size="sm">{body ?? t('mfa.required.body')}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button component={Link} to={paths.securityTwoStep} onClick={onClose}>
            {t('mfa.required.action')}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
