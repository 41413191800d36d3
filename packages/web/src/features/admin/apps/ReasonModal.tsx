import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ADMIN_REASON_MAX, ADMIN_REASON_MIN } from '@portal/contracts';
import { errorText, type ApiError } from '../../../lib/api';

/** What a change needs before it is sent: its reason, which goes into the operator audit log. */
export interface PendingChange {
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  run(reason: string): Promise<unknown>;
}

/** Asks the reason of a change, runs it, and says why when it fails. */
export function ReasonModal({ change, onClose }: { change: PendingChange | null; onClose(): void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const close = () => {
    setReason('');
    setFailure(null);
    onClose();
  };
  const confirm = async () => {
    if (!change) return;
    setPending(true);
    setFailure(null);
    try {
      await change.run(reason.trim());
      close();
    } catch (error) {
      setFailure(errorText(error as ApiError));
    } finally {
      setPending(false);
    }
  };
  return (
    <Modal opened={change !== null} onClose={close} title={change?.title} centered closeButtonProps={{ 'aria-label': t('admin.apps.close') }}>
      <Stack gap="md">
        <Text size="sm">{change?.body}</Text>
        <Textarea
          label={t('admin.apps.reason')}
          description={t('admin.apps.reasonHint', { min: ADMIN_REASON_MIN, max: ADMIN_REASON_MAX })}
          value={reason}
          maxLength={ADMIN_REASON_MAX}
          autosize
          minRows={2}
          onChange={(event) => setReason(event.currentTarget.value)}
          data-testid="change-reason"
          data-autofocus
        />
        {failure && (
          <Alert color="red" role="alert" data-testid="change-error">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {t('admin.apps.cancel')}
          </Button>
          <Button color={change?.danger ? 'red' : undefined} disabled={reason.trim().length < ADMIN_REASON_MIN} loading={pending} onClick={() => void confirm()} data-testid="change-confirm">
            {change?.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
