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
