import '../../../components/dialogs/styles';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from '../../../components/dialogs/Dialog';
import { useTranslation } from 'react-i18next';
import { VERIFICATION_CODE_LENGTH } from '@portal/contracts';
import { OtpInput } from '../../../components/form/OtpInput';
import { useCodeCheck } from '../../../components/form/use-code-check';

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
  const entry = useCodeCheck(onSubmit);

  const close = () => {
    entry.reset();
    onClose();
  };

  return (
    <Dialog opened={opened} onClose={close} title={title}>
      <form noValidate onSubmit={entry.submitForm}>
        <Stack gap="md">
          <Text size="sm">{t('account.email.otp.sentTo', { email, length: VERIFICATION_CODE_LENGTH })}</Text>
          <OtpInput label={t('account.email.otp.label')} {...entry.input} autoFocus />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={entry.pending}>
              {t('account.email.otp.verify')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
