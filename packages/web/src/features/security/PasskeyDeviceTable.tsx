import '@mantine/core/styles/Badge.css';
import '../../components/dialogs/styles';
import { useEffect, useState, type FormEvent } from 'react';
import { Badge, Group, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@portal/contracts';
import { ApiError, errorText } from '../../lib/api';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { FormDialog } from '../../components/dialogs/FormDialog';
import { DataTable } from '../../components/DataTable';
import { RowAction } from '../../components/RowAction';
import { useLanguage } from '../../lib/use-language';

export interface PasskeyRow {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  backed_up?: boolean;
}

export interface PasskeyDeviceTableProps {
  passkeys: PasskeyRow[];
  /** PUT /sso/users/me/webauthn/{id}; a 400 stays in the rename dialog. */
  onRename(id: string, name: string): Promise<unknown>;
  /** DELETE /sso/users/me/webauthn/{id}, after the user confirms. */
  onRemove(id: string): Promise<unknown>;
}

const NAME_MAX = 60;

/** The passkey device table: name, created, last used; rename and remove (with a confirmation). */
export function PasskeyDeviceTable({ passkeys, onRename, onRemove }: PasskeyDeviceTableProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [renaming, setRenaming] = useState<PasskeyRow | null>(null);
  const [removing, setRemoving] = useState<PasskeyRow | null>(null);

  return (
    <>
      <DataTable rows={passkeys} rowKey={(passkey) => passkey.id} minWidth={560} testId="passkey-table" rowTestId="passkey-row"
        columns={[
          {
            header: t('passkeys.table.name'),
            cell: (passkey) => (
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={500}>
                  {passkey.name}
                </Text>
                {passkey.backed_up && (
                  <Badge size="xs" variant="light" color="gray">
                    {t('passkeys.table.synced')}
                  </Badge>
                )}
              </Group>
            ),
          },
          { header: t('passkeys.table.created'), text: (passkey) => formatDateTime(passkey.created_at, language) },
          {
            header: t('passkeys.table.lastUsed'),
            cell: (passkey) => (
              <Text size="sm" c={passkey.last_used_at ? undefined : 'dimmed'}>
                {passkey.last_used_at ? formatDateTime(passkey.last_used_at, language) : t('passkeys.table.never')}
              </Text>
            ),
          },
        ]}
        actions={{
          label: t('passkeys.table.actions'),
          cell: (passkey) => (
            <>
              <RowAction label={t('passkeys.table.rename')} of={passkey.name} onClick={() => setRenaming(passkey)} />
              <RowAction label={t('passkeys.table.remove')} of={passkey.name} danger onClick={() => setRemoving(passkey)} />
            </>
          ),
        }}
      />
      <RenameDialog passkey={renaming} onClose={() => setRenaming(null)} onRename={onRename} />
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('passkeys.table.removeTitle')}
        confirmLabel={t('passkeys.table.remove')}
        danger
        onConfirm={() => onRemove(removing!.id)}
      >
        {t('passkeys.table.removeBody', { name: removing?.name ?? '' })}
      </ConfirmDialog>
    </>
  );
}

function RenameDialog({ passkey, onClose, onRename }: { passkey: PasskeyRow | null; onClose(): void; onRename(id: string, name: string): Promise<unknown> }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    setName(passkey?.name ?? '');
    setProblem(null);
  }, [passkey]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!passkey || pending) return;
    const trimmed = name.trim();
    if (!trimmed) return setProblem(t('validation.blank'));
    setPending(true);
    try {
      await onRename(passkey.id, trimmed);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setProblem(errorText(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <FormDialog opened={passkey !== null} onClose={onClose} title={t('passkeys.table.renameTitle')} onSubmit={submit} failure={null} submitLabel={t('passkeys.table.save')} submitting={pending}>
      <TextInput
        label={t('passkeys.table.name')}
        maxLength={NAME_MAX}
        data-autofocus
        value={name}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setProblem(null);
        }}
        error={problem}
        data-testid="passkey-rename-input"
      />
    </FormDialog>
  );
}
