import '../../components/dialogs/styles';
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { Dialog } from '../../components/dialogs/Dialog';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { CeremonyError } from '../../components/passkey/ceremony';
import { passkeyErrorText } from '../../components/passkey/passkey-errors';

export interface PasskeyCreateDialogProps {
  opened: boolean;
  onClose(): void;
  /**
   * Creates the passkey: options from the server, the browser's prompt, the credential back
   * (features/security). Throws a CeremonyError or an ApiError, shown in the dialog.
   */
  onCreate(name: string | undefined): Promise<unknown>;
}

const NAME_MAX = 60;

/** The passkey-create dialog: an optional name, then the browser's own prompt. */
export function PasskeyCreateDialog({ opened, onClose, onCreate }: PasskeyCreateDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    if (!opened) {
      setName('');
      setFailure(null);
    }
  }, [opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFailure(null);
    try {
      await onCreate(name.trim() || undefined);
    } catch (error) {
      // Other statuses were reported by the API client's policy.
      if (error instanceof CeremonyError || (error instanceof ApiError && error.status === 400)) setFailure(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog opened={opened} onClose={onClose} title={t('passkeys.createTitle')}>
      <form noValidate onSubmit={(event) => void submit(event)} data-testid="passkey-create-dialog">
        <Stack gap="md">
          <Text size="sm">{t('passkeys.createBody')}</Text>
          <TextInput
            label={t('passkeys.nameLabel')}
            description={t('passkeys.nameHint')}
            placeholder={t('passkeys.namePlaceholder')}
            maxLength={NAME_MAX}
            autoComplete="off"
            data-autofocus
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            data-testid="passkey-name"
          />
          {failure !== null && (
            <Alert color={failure instanceof CeremonyError && failure.problem === 'cancelled' ? 'yellow' : 'red'} variant="light" role="alert">
              {passkeyErrorText(failure, 'create')}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending} data-testid="passkey-create-submit">
              {t('passkeys.createSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
