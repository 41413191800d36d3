import './styles';
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { Dialog } from './Dialog';
import { useTranslation } from 'react-i18next';
import { mfaEndpoints, VERIFICATION_CODE_LENGTH, type TwoFactorMethod } from '@portal/contracts';
import { call } from '../../lib/api';
import { recoveryCode } from '../../lib/validators';
import { OtpInput } from '../form/OtpInput';
import { useCodeCheck } from '../form/use-code-check';
import { SendCodeButton, useSendCode } from '../form/SendCodeButton';

export type TwoFactorProof = { code: string } | { recovery_code: string };

export interface TwoFactorInputDialogProps {
  opened: boolean;
  onClose(): void;
  /** The account's method: says where the code comes from, and offers a mailed code for email. */
  method: TwoFactorMethod;
  title?: string;
  /** Above the code: what the code is for. */
  description?: string;
  /** Offer "use a recovery code instead" (default yes). */
  allowRecovery?: boolean;
  submitLabel?: string;
  /** Checks the code; a 400 (wrong or expired code) is shown in the dialog under it. */
  onSubmit(proof: TwoFactorProof): Promise<unknown>;
  /** Mails a code (email method); default POST /sso/me/2fa/email/send. */
  onSendCode?(): Promise<unknown>;
}


/**
 * The two-factor input dialog: a current code (PinInput, 6 digits) or, instead, one of the
 * recovery codes. Used wherever a signed-in action needs the second factor on its own.
 */
export function TwoFactorInputDialog({
  opened,
  onClose,
  method,
  title,
  description,
  allowRecovery = true,
  submitLabel,
  onSubmit,
  onSendCode = () => call(mfaEndpoints.emailSend),
}: TwoFactorInputDialogProps) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [recovery, setRecovery] = useState('');
  const mailed = useSendCode(onSendCode);
  const { reset: unsend } = mailed;
  const entry = useCodeCheck((code) => onSubmit({ code }));
  const { reset } = entry;

  useEffect(() => {
    if (!opened) {
      setUseRecovery(false);
      setRecovery('');
      unsend();
      reset();
    }
  }, [opened, reset, unsend]);

  const submit = async () => {
    if (!useRecovery) return entry.submit();
    const value = recovery.trim().toUpperCase();
    if (recoveryCode(value)) return entry.setProblem('validation.recoveryCode');
    await entry.attempt(() => onSubmit({ recovery_code: value }));
  };

  const body = description ?? t(method === 'email' ? 'mfa.dialog.emailBody' : 'mfa.dialog.totpBody', { length: VERIFICATION_CODE_LENGTH });

  return (
    <Dialog opened={opened} onClose={onClose} title={title ?? t('mfa.dialog.title')}>
      <form
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void submit();
        }}
        data-testid="two-factor-dialog"
      >
        <Stack gap="md">
          <Text size="sm">{body}</Text>
          {useRecovery ? (
            <TextInput
              label={t('mfa.dialog.recoveryLabel')}
              description={t('mfa.dialog.recoveryHint')}
              placeholder="XXXXX-XXXXX"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              data-autofocus
              value={recovery}
              onChange={(event) => {
                setRecovery(event.currentTarget.value);
                entry.setProblem(null);
              }}
              error={entry.message}
              data-testid="recovery-code-input"
            />
          ) : (
            <OtpInput label={t('mfa.dialog.codeLabel')} {...entry.input} autoFocus />
          )}
          {method === 'email' && !useRecovery && <SendCodeButton code={mailed} label={t('mfa.dialog.sendCode')} sentNote={t('mfa.dialog.codeSent')} />}
          {allowRecovery && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setUseRecovery((current) => !current);
                entry.setProblem(null);
              }}
            >
              {t(useRecovery ? 'mfa.dialog.useCode' : 'mfa.dialog.useRecovery')}
            </Anchor>
          )}
          {entry.refusal?.code === 'auth.mfa_token_invalid' && (
            <Alert color="red" variant="light" role="alert">
              {entry.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={entry.pending}>
              {submitLabel ?? t('mfa.dialog.verify')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
