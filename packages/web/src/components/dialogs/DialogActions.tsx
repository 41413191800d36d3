import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../lib/api';
import { FailureAlert } from '../FailureAlert';

interface DialogActionsProps {
  /** The server's refusal of the last submit, shown above the buttons. */
  failure: ApiError | null | undefined;
  onCancel: () => void;
  submitLabel: string;
  submitting: boolean;
  danger?: boolean;
}

/** The end of every form dialog: the failure (if any), then Cancel and the submit button. */
export function DialogActions({ failure, onCancel, submitLabel, submitting, danger }: DialogActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      <FailureAlert failure={failure} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" color={danger ? 'red' : undefined} loading={submitting}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
