import './styles';
import type { FormEvent, ReactNode } from 'react';
import { Stack } from '@mantine/core';
import { Dialog } from './Dialog';
import type { ApiError } from '../../lib/api';
import { DialogActions } from './DialogActions';

interface FormDialogProps {
  opened: boolean;
  onClose(): void;
  title: string;
  /** The form's submit (useDialogForm's `submit`). */
  onSubmit(event: FormEvent<HTMLFormElement>): Promise<void>;
  /** The server's refusal of the last submit, shown above the buttons. */
  failure: ApiError | null | undefined;
  submitLabel: string;
  submitting: boolean;
  danger?: boolean;
  /** data-testid of the form. */
  testId?: string;
  /** The dialog's text and fields, above the failure and the buttons. */
  children: ReactNode;
}

/** A dialog that is one form: its text and fields, then the failure, Cancel and the submit button. */
export function FormDialog({ opened, onClose, title, onSubmit, failure, submitLabel, submitting, danger, testId, children }: FormDialogProps) {
  return (
    <Dialog opened={opened} onClose={onClose} title={title}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid={testId}>
        <Stack gap="md">
          {children}
          <DialogActions failure={failure} onCancel={onClose} submitLabel={submitLabel} submitting={submitting} danger={danger} />
        </Stack>
      </form>
    </Dialog>
  );
}
