import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { MfaChallengeResponse } from '@portal/contracts';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { completeSignIn, signInTarget } from '../../lib/sign-in';
import { isMfaChallenge } from './api';
import { useRestoreOffer } from './use-restore-offer';

// Only when two-step verification asks for a second step: not on a sign-in page's first visit.
const SecondFactorStep = lazy(async () => ({ default: (await import('./SecondFactorStep')).SecondFactorStep }));

export interface SignInResult {
  /** A way in's answer: a challenge shows the second step, a session completes the sign-in. */
  accept(answer: unknown): Promise<void>;
  /** Shows the second step for a challenge the page already holds. */
  showSecondStep(challenge: MfaChallengeResponse): void;
  /** The session cookie is set: the busy loader, the last-active ping and a reload at the return target (lib/sign-in.ts). */
  finish(): Promise<void>;
  /** A failure goes here first: true when it was the deletion refusal, now offered as a restore. */
  offerRestore(error: unknown): boolean;
  /** The second step, once a challenge came: the page shows it instead of itself. */
  secondStep: ReactNode;
  /** The restore offer's dialog and note, for the page to place. */
  restoreElement: ReactNode;
  /** The sign-in is completing (also after a confirmed restore): the page's submit stays busy. */
  done: boolean;
}

/**
 * What every sign-in page does with a sign-in's result: the second step when two-step
 * verification asks for one, the deletion-restore offer when the account is scheduled for
 * deletion, and otherwise the end of the sign-in at the return target: `next`, the entry's
 * return URL or home, read from this page's query or, after an outside provider's round trip,
 * from `targetSearch` (the query the sign-in started with).
 */
export function useSignInResult({ targetSearch }: { targetSearch?: () => string } = {}): SignInResult {
  const { search } = useLocation();
  const { allowedRedirectOrigins } = useRuntimeConfig();
  const [challenge, setChallenge] = useState<MfaChallengeResponse | null>(null);
  const [done, setDone] = useState(false);

  const finish = async () => {
    setDone(true);
    await completeSignIn(signInTarget(targetSearch ? targetSearch() : search, allowedRedirectOrigins));
  };
  // A restored account ends its sign-in here too, at the same target.
  const restore = useRestoreOffer(finish);

  const secondStep = challenge ? (
    <Suspense fallback={null}>
      <SecondFactorStep challenge={challenge} onSignedIn={finish} />
    </Suspense>
  ) : null;

  return {
    accept: async (answer) => (isMfaChallenge(answer) ? setChallenge(answer) : finish()),
    showSecondStep: setChallenge,
    finish,
    offerRestore: restore.offer,
    secondStep,
    restoreElement: restore.element,
    done,
  };
}
