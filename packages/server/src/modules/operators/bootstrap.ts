import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/errors';
import type { OperatorService } from './service';

/**
 * OPERATOR_EMAILS at start: each listed account that exists and is activated holds `owner`
 * afterwards (granted when missing, at every start). An address without such an account is
 * skipped with a warning: a role never waits on an address someone else could sign up with.
 */
export async function grantConfiguredOwners(operators: OperatorService, emails: readonly string[], log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<void> {
  for (const email of emails) {
    try {
      await operators.grant(email, 'owner');
      log.info({ operator: email }, 'OPERATOR_EMAILS: owner role held');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'admin.account_not_found') throw error;
      log.warn({ operator: email }, 'OPERATOR_EMAILS: no activated account has this email; sign up and activate it, then restart');
    }
  }
}
