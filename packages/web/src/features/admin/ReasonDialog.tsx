import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { Dialog } from '../../components/dialogs/Dialog';
import { useTranslation } from 'react-i18next';
import { ADMIN_REASON_MAX, ADMIN_REASON_MIN } from '@portal/contracts';
import { errorText, type ApiError } from '../../lib/api';

export interface ReasonDialogProps {
  opened: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  onClose(): void;
  /** Runs the action with the reason; the dialog closes when it succeeds and says why when it fails. */
  onConfirm(reason: string): Promise<unknown>;
}

/** A change waiting for its reason, for pages that keep one pending change in their state. */
export interface PendingChange {
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  run(reason: string): Promise<unknown>;
}

/** The dialog's props for a pending change (closed when there is none). */
export function changeDialog(change: PendingChange | null): Omit<ReasonDialogProps, 'onClose'> {
  return {
    opened: change !== null,
    title: change?.title ?? '',
    body: change?.body ?? '',
    confirmLabel: change?.confirmLabel ?? '',
    danger: change?.danger,
    onConfirm: (reason) => change?.run(reason) ?? Promise.resolve(),
  };
}

type DialogTexts = Pick<ReasonDialogProps, 'title' | 'body' | 'confirmLabel' | 'danger'>;

/**
 * The texts of the change last asked for. A page drops its change as the dialog closes
 * (changeDialog(null) has empty texts) while the dialog is still fading out: without these, its
 * title and confirm button were empty for that time, a button without an accessible name.
 */
function useTextsWhileOpen(texts: DialogTexts, opened: boolean): DialogTexts {
  const [kept, setKept] = useState(texts);
  const changed = kept.title !== texts.title || kept.body !== texts.body || kept.confirmLabel !== texts.confirmLabel || kept.danger !== texts.danger;
  if (opened && changed) setKept(texts);
  return opened ? texts : kept;
}

/**
 * Asks the reason every changing admin call carries into the operator audit log (the API's
 * rule: 3 to 500 characters once trimmed), runs the change, and says why when it fails.
 */
export function ReasonDialog({ opened, onClose, onConfirm, ...texts }: ReasonDialogProps) {
  const { t, i18n } = useTranslation();
  const { title, body, confirmLabel, danger } = useTextsWhileOpen(texts, opened);
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const usable = reason.trim().length >= ADMIN_REASON_MIN;
  const close = () => {
    setReason('');
    setFailure(null);
    onClose();
  };
  const confirm = async () => {
    setPending(true);
    setFailure(null);
    try {
      await onConfirm(reason.trim());
      close();
    } catch (error) {
      // The refusal's own text where the catalogue has one: a 404 `admin.account_not_found` says
      // which account is missing, where the shared policy would only say "not found".
      const refusal = error as ApiError;
      const own = `errors.${refusal.code}`;
      setFailure(refusal.code?.startsWith('admin.') && i18n.exists(own) ? String(t(own as never, (refusal.details ?? {}) as never)) : errorText(refusal));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog opened={opened} onClose={close} title={title}>
      <Stack gap="md">
        <Text size="sm">{body}</Text>
        <Textarea
          label={t('admin.reason.label')}
          description={t('admin.reason.hint', { min: ADMIN_REASON_MIN, max: ADMIN_REASON_MAX })}
          value={reason}
          maxLength={ADMIN_REASON_MAX}
          autosize
          minRows={2}
          onChange={(event) => setReason(event.currentTarget.value)}
          data-testid="action-reason"
          data-autofocus
        />
        {failure && (
          <Alert color="red" role="alert" data-testid="action-error">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} disabled={!usable} loading={pending} onClick={() => void confirm()} data-testid="action-confirm">
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
