/**
 * The message an operator command's service refuses with: the promise must reject with one of
 * `refusals` (the service's own error classes). Any other error is rethrown, and a call that is
 * accepted fails the test.
 */
export async function refusalOf(promise: Promise<unknown>, ...refusals: Array<abstract new (...args: never[]) => Error>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (refusals.some((refusal) => error instanceof refusal)) return (error as Error).message;
    throw error;
  }
  throw new Error('accepted');
}
