import { useState } from 'react';
import { ApiError, errorText } from '../../lib/api';

/**
 * A page's one attempt at a time (look up, approve, send, verify): `pending` while it runs, a
 * second one asked meanwhile is dropped, and an API refusal ends it as `failure`, its text,
 * cleared when the next one starts. Anything else is no refusal: it is thrown on.
 */
export function useAttempt() {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const attempt = async (run: () => Promise<void>) => {
    if (pending) return;
    setPending(true);
    setFailure(null);
    try {
      await run();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(errorText(error));
    } finally {
      setPending(false);
    }
  };

  return { pending, failure, attempt };
}
