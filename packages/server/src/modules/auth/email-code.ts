import type { Database } from '../../db/client';
import type { RequestOrigin } from '../../platform/request-origin';
import type { SecondFactorService } from '../mfa';
import { createUserService } from '../users';

export interface EmailCodeDependencies {
  db: Database;
  secondFactor: Pick<SecondFactorService, 'throttleCodeSend' | 'mailCode'>;
  log: { error(object: unknown, message: string): void };
}

/**
 * Mails the code of email-code sign-in (/login/quick), whose check is the emailCode way in.
 * Same answer, limits and time whether or not the account exists: the lookup and the mail
 * happen after the answer.
 */
export function createLoginCodeSender(deps: EmailCodeDependencies) {
  const users = createUserService(deps.db);
  return async (email: string, origin: RequestOrigin): Promise<{ email: string }> => {
    await deps.secondFactor.throttleCodeSend(email, origin.limitAddress, 'login_code');
    setImmediate(() => {
      void (async () => {
        const user = await users.findByEmail(email);
        if (user) await deps.secondFactor.mailCode(user, 'login_code', origin);
      })().catch((error: unknown) => deps.log.error({ err: error }, 'sign-in code not sent'));
    });
    return { email };
  };
}
