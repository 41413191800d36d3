import { Button } from '@mantine/core';
import { RESEND_COOLDOWN_SECONDS } from '../../components/ResendActivation';
import { ApiError, retryAfterSeconds } from '../../lib/api';
import { useCountdown } from '../../lib/use-countdown';

/**
 * Mailing a sign-in or recovery code again, after the server's gap: `seconds` left of the wait
 * (the first one from `initialSeconds`); `resend()` clears the form's failure, sends, and starts a
 * new wait once sent, or the wait a 429 names. A refusal goes to `setFailure`; it answers whether
 * the code went.
 */
export function useResendCode(send: () => Promise<unknown>, { initialSeconds, setFailure }: { initialSeconds: number; setFailure(failure: ApiError | null): void }) {
  const [seconds, startCooldown] = useCountdown(initialSeconds);

  const resend = async () => {
    setFailure(null);
    try {
      await send();
      startCooldown(RESEND_COOLDOWN_SECONDS);
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 429) startCooldown(retryAfterSeconds(error));
      setFailure(error);
      return false;
    }
  };

  return { seconds, resend };
}

/** The small "send the code again" button, saying how long to wait while it cannot. */
export function ResendCodeButton({ seconds, onResend, label, waitLabel, testId }: { seconds: number; onResend(): void; label: string; waitLabel: string; testId?: string }) {
  return (
    <Button variant="subtle" size="xs" px={0} disabled={seconds > 0} onClick={onResend} data-testid={testId}>
      {seconds > 0 ? waitLabel : label}
    </Button>
  );
}
