import { useEffect, useState } from 'react';

export type LinkAnswer<T> = { state: 'pending' } | { state: 'answered'; value: T } | { state: 'failed' };

/**
 * What the server answered to a mailed link's token: pending until the call settles, failed
 * when the link has no token or the call is refused. The call is read once per token.
 */
export function useLinkAnswer<T>(token: string | undefined, ask: (token: string) => Promise<T>): LinkAnswer<T> {
  const [answer, setAnswer] = useState<LinkAnswer<T>>(token ? { state: 'pending' } : { state: 'failed' });

  useEffect(() => {
    if (!token) return;
    let current = true;
    ask(token).then(
      (value) => current && setAnswer({ state: 'answered', value }),
      () => current && setAnswer({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
    // The link is read once per token, whatever function a render passes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  return answer;
}
