import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Anchor, Text } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { completeSignIn, signInTarget } from '../../lib/sign-in';
import { deletionPending, type DeletionPending } from './deletion-pending';

// Only when a sign-in meets an account scheduled for deletion: not on /login's first visit.
const RestoreAccountDialog = lazy(async () => ({ default: (await import('./RestoreAccountDialog')).RestoreAccountDialog }));

export { deletionPending, type DeletionPending } from './deletion-pending';

export interface RestoreOffer {
  /**
   * Every sign-in result's failure goes through here first (password, second factor, email
   * code, passkey): true when it was the deletion refusal, now offered as a restore; the
   * caller then shows nothing of its own.
   */
  offer(error: unknown): boolean;
  /** The dialog (loaded on demand) and, once declined, the note that stays on the page. */
  element: ReactNode;
}

/**
 * The sign-in pages' one answer to 403 account.deletion_pending: 'Cancel deletion and
 * restore' (RestoreAccountDialog) with the deletion date. Confirming posts the restore
 * token (POST /sso/auth/restore → {token}, session cookies set) and completes the sign-in
 * like any other (lib/sign-in.ts: last-active ping, reload at the safe target); declining
 * leaves the visitor on the sign-in page, with the refusal's text and a way back to the offer.
 */
export function useRestoreOffer(onRestoring?: () => void): RestoreOffer {
  const [pending, setPending] = useState<DeletionPending | null>(null);
  const [round, setRound] = useState(0);

  const offer = (error: unknown) => {
    const found = deletionPending(error);
    if (!found) return false;
    setPending(found);
    setRound((current) => current + 1); // a new refusal opens the dialog again
    return true;
  };

  const element = pending ? <RestoreOfferView key={round} pending={pending} onRestoring={onRestoring} /> : null;
  return { offer, element };
}

/** The offer for one refusal: the dialog, open at first, and once declined the note with a way back to it. */
export function RestoreOfferView({ pending, onRestoring }: { pending: DeletionPending; onRestoring?: () => void }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const { allowedRedirectOrigins } = useRuntimeConfig();
  const [opened, setOpened] = useState(true);
  return (
    <>
      {!opened && (
        <Text size="sm" role="status" mt="md" data-testid="deletion-pending">
          {errorText(pending.error)}{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => setOpened(true)}>
            {t('login.restoreAccount')}
          </Anchor>
        </Text>
      )}
      <Suspense fallback={null}>
        <RestoreAccountDialog
          opened={opened}
          onClose={() => setOpened(false)}
          restoreToken={pending.restoreToken}
          deletionDueAt={pending.deletionDueAt}
          onRestored={() => {
            onRestoring?.();
            void completeSignIn(signInTarget(search, allowedRedirectOrigins));
          }}
        />
      </Suspense>
    </>
  );
}
