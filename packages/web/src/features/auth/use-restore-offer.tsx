import { lazy, Suspense, useState, type ReactNode } from 'react';
import { deletionPending, type DeletionPending } from './deletion-pending';

// Only when a sign-in meets an account scheduled for deletion: its code loads when it is needed.
const RestoreOfferView = lazy(async () => ({ default: (await import('./restore-offer')).RestoreOfferView }));

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
 * restore' (restore-offer.tsx) with the deletion date. Once restored (the session cookie is
 * set), `finish` ends the sign-in as the sign-in itself would have: the caller knows its
 * return target, which after an outside provider's round trip is not in this page's query.
 */
export function useRestoreOffer(finish: () => Promise<void>): RestoreOffer {
  const [refusal, setRefusal] = useState<{ pending: DeletionPending; round: number } | null>(null);

  const offer = (error: unknown) => {
    const pending = deletionPending(error);
    if (!pending) return false;
    // A new refusal opens the dialog again.
    setRefusal((current) => ({ pending, round: (current?.round ?? 0) + 1 }));
    return true;
  };

  const element = refusal ? (
    <Suspense fallback={null}>
      <RestoreOfferView key={refusal.round} pending={refusal.pending} onRestored={finish} />
    </Suspense>
  ) : null;
  return { offer, element };
}
