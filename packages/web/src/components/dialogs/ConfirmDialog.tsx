import './styles';
import { useState, type ReactNode } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from './Dialog';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  opened: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Runs the action; the dialog closes when it succeeds and stays open when it fails (the API client reported why). */
  onConfirm(): Promise<unknown>;
}

/** "Are you sure?" for an action without credentials: revoke a key, remove the recovery email. */
export function ConfirmDialog({ opened, onClose, title, children, confirmLabel, danger, onConfirm }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
      onClose();
    } catch {
      // reported by the API client's policy
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog opened={opened} onClose={onClose} title={title}>
      <Stack gap="md">
        <Text size="sm">{children}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} loading={pending} onClick={() => void confirm()} data-testid="confirm-action">
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
