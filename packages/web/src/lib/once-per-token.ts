/**
 * Mailed links are single use: wraps the call that spends one so it runs once per token per
 * page load, even when React runs an effect twice (development) or the page re-renders.
 */
export function oncePerToken<T>(spend: (token: string) => Promise<T>): (token: string) => Promise<T> {
  const spent = new Map<string, Promise<T>>();
  return (token) => {
    let pending = spent.get(token);
    if (!pending) spent.set(token, (pending = spend(token)));
    return pending;
  };
}
