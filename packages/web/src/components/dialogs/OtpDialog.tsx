import './styles';
import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { VERIFICATION_CODE_LENGTH } from '@portal/contracts';
import { ApiError, errorText } from '../../lib/api';
import { messageKey, translateMessage } from './form-errors';
import { OtpInput } from './OtpInput';

export interface OtpDialogProps {
  opened: boolean;
  onClose(): void;
  title: string;
  /** Where the code went: "We sent a 6-digit code to {email}". */
  email: string;
  /** Checks the code; a rejection (ApiError 400) is shown under the code. */
  onSubmit(code: string): Promise<unknown>;
}

/**
 * The account and email OTP dialog: the code mailed to an address being added or changed.
 * A wrong or expired code stays in the dialog, under the input; other failures are
 * reported by the API client's policy.
 */
export function OtpDialog({ opened, onClose, title, email, onSubmit }: OtpDialogProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | ApiError | null>(null);
  const [pending, setPending] = useState(false);

  const close = () => {
    setCode('');
    setProblem(null);
    onClose();
  };

  const submit = async (value: string) => {
    if (pending) return;
    if (!new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(value)) {
      setProblem(messageKey('validation.codeFormat', { length: VERIFICATION_CODE_LENGTH }));
      return;
    }
    setPending(true);
    setProblem(null);
    try {
      await onSubmit(value);
      setCode('');
    } catch (error) {
      // A wrong or expired code: said under empty boxes, ready for the next try.
      if (error instanceof ApiError && error.status === 400) {
        setProblem(error);
        setCode('');
      }
    } finally {
      setPending(false);
    }
  };

  const message = problem instanceof ApiError ? errorText(problem) : translateMessage(problem ?? undefined);

  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void submit(code);
        }}
      >
        <Stack gap="md">
          <Text size="sm">{t('otp.sentTo', { email, length: VERIFICATION_CODE_LENGTH })}</Text>
          <OtpInput
            label={t('otp.label')}
            value={code}
            onChange={(value) => {
              setCode(value);
              if (problem && value) setProblem(null);
            }}
            onComplete={(value) => void submit(value)}
            error={message}
            autoFocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {t('otp.verify')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
