import '../../components/dialogs/styles';
import { useEffect, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from '../../components/dialogs/Dialog';
import { useTranslation } from 'react-i18next';
import { firstPaintRoutes, formatDate, paths, type accountEndpoints } from '@portal/contracts';
import { call, notify } from '../../lib/api';
import { i18n, loadAccountCatalogue } from '../../lib/i18n';
import { useLanguage } from '../../lib/use-language';

export interface RestoreAccountDialogProps {
  opened: boolean;
  onClose(): void;
  /** details.restore_token of the 403 account.deletion_pending answer to a sign-in. */
  restoreToken: string;
  /** details.deletion_due_at of the same answer. */
  deletionDueAt?: string;
  /**
   * After POST /sso/auth/restore signed the user in. By default the app reloads at the root,
   * as after any sign-in (the spec's state rules).
   */
  onRestored?(token: string): void;
}

/** POST /sso/auth/restore {restore_token} → {token}: cancels the deletion and signs in. */
export const restoreAccount = (restoreToken: string) => call<typeof accountEndpoints.restore>(firstPaintRoutes.restore, { body: { restore_token: restoreToken } });

/**
 * 'Cancel deletion and restore', offered by the sign-in page when the account is scheduled
 * for deletion. Its text is in the account catalogue, which it fetches itself: the sign-in
 * pages do not ship it (import this module lazily from there too).
 */
export function RestoreAccountDialog({ opened, onClose, restoreToken, deletionDueAt, onRestored }: RestoreAccountDialogProps) {
  const { t } = useTranslation();
  const [ready, setReady] = useState(() => i18n.exists('account.restore.title'));
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (ready) return;
    let current = true;
    loadAccountCatalogue()
      .catch(() => undefined)
      .finally(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [ready]);

  const restore = async () => {
    setPending(true);
    try {
      const { token } = await restoreAccount(restoreToken);
      notify('success', t('account.restore.restored'));
      if (onRestored) onRestored(token);
      else window.location.assign(paths.home);
    } catch {
      // reported by the API client's policy (an expired restore token answers 400)
    } finally {
      setPending(false);
    }
  };

  const language = useLanguage();
  const date = deletionDueAt ? formatDate(deletionDueAt, language) : '';

  return (
    <Dialog opened={opened && ready} onClose={onClose} title={t('account.restore.title')}>
      <Stack gap="md" data-testid="restore-account-dialog">
        <Text size="sm">{t('account.restore.body', { date })}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('account.restore.keep')}
          </Button>
          <Button onClick={() => void restore()} loading={pending} data-testid="restore-account">
            {t('account.restore.submit')}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
