import { fieldError } from '../errors';
import type { EgressProblem } from './url';

/** The field error of a refused URL: 400 validation_error with `egress.url_refused` on the field. */
export function egressFieldError(field: string, problem: EgressProblem) {
  const error = fieldError(field, 'egress.url_refused');
  // Which rule it broke, in English, for API users and operators.
  (error.details as Record<string, unknown>).reason = problem;
  return error;
}
