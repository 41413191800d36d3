import type { EgressProblem } from './url';

/** A request the egress guard did not send (or cut off): its reason, never the response's content. */
export class EgressRefused extends Error {
  override readonly name = 'EgressRefused';
  constructor(
    readonly problem: EgressProblem | 'too_large' | 'redirect',
    message: string,
  ) {
    super(message);
  }
}

/** The guard's refusal in an error that wrapped it (fetch's "fetch failed", caused by the lookup's error). */
export function refusalIn(error: unknown): EgressRefused | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof EgressRefused) return current;
  }
  return undefined;
}
