import '../../components/dialogs/styles';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from '../../components/dialogs/Dialog';
import { useTranslation } from 'react-i18next';

export interface PasskeyPasswordConfirmDialogProps {
  opened: boolean;
  onClose(): void;
  /** Opens the PasskeyPasswordChangeDialog (or the password page). */
  onSetPassword(): void;
}

/**
 * The passkey password-confirm dialog: an action asks for the password again (turning
 * two-step off, new recovery codes) but the account signs in with passkeys only. It says
 * so and offers to set a password first.
 */
export function PasskeyPasswordConfirmDialog({ opened, onClose, onSetPassword }: PasskeyPasswordConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog opened={opened} onClose={onClose} title={t('passkeys.confirmTitle')}>
      <Stack gap="md" data-testid="passkey-password-confirm">
        <Text size="sm">{t('passkeys.confirmBody')}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={onSetPassword}>{t('passkeys.confirmAction')}</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
