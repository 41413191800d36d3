import { useState } from 'react';
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api';
import type { DeletionPending } from './deletion-pending';
import { RestoreAccountDialog } from './RestoreAccountDialog';

/**
 * The offer for one 403 account.deletion_pending (use-restore-offer.tsx shows it): the dialog,
 * open at first, and once declined the note with a way back to it. Confirming posts the
 * restore token (POST /sso/auth/restore → {token}, session cookies set), then `onRestored`
 * completes the sign-in like any other (lib/sign-in.ts: last-active ping, reload at the
 * sign-in's return target); declining leaves the visitor on the sign-in page, with the refusal's text.
 */
export function RestoreOfferView({ pending, onRestored }: { pending: DeletionPending; onRestored: () => Promise<void> }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(true);
  return (
    <>
      {!opened && (
        <Text size="sm" role="status" mt="md" data-testid="deletion-pending">
          {errorText(pending.error)}{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => setOpened(true)}>
            {t('auth.login.restoreAccount')}
          </Anchor>
        </Text>
      )}
      <RestoreAccountDialog
        opened={opened}
        onClose={() => setOpened(false)}
        restoreToken={pending.restoreToken}
        deletionDueAt={pending.deletionDueAt}
        onRestored={() => void onRestored()}
      />
    </>
  );
}
