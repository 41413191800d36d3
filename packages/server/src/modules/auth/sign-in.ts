import type { RequestOrigin } from '../../platform/request-origin';
import type { FactorProof, SecondFactorService } from '../mfa';
import { createLoginCodeSender, type EmailCodeDependencies } from './email-code';
import { membershipWithAccount, type MembershipWithAccountDependencies } from './membership-with-account';
import { createSignInPipeline, type SignInDependencies } from './pipeline';
import { createWaysIn, type WaysInDependencies } from './ways-in';

export type SignIn = ReturnType<typeof createSignIn>;

type SignInSecondFactor = SignInDependencies['secondFactor'] &
  WaysInDependencies['secondFactor'] &
  EmailCodeDependencies['secondFactor'] &
  Pick<SecondFactorService, 'resend'>;

/** The sign-in pipeline with the ways in the auth module knows: what routes and other modules call. */
export function createSignIn(deps: SignInDependencies & WaysInDependencies & EmailCodeDependencies & MembershipWithAccountDependencies & { secondFactor: SignInSecondFactor }) {
  const memberships = membershipWithAccount(deps);
  const pipeline = createSignInPipeline({ ...deps, membershipOf: memberships.membershipOf });
  const ways = createWaysIn({ ...deps, findAccount: memberships.findAccount });
  return {
    /** Any way in, such as a passkey (modules/passkeys) or, later, a social or company identity. */
    run: pipeline.run,
    withPassword: (input: { email: string; password: string; captcha?: string }, origin: RequestOrigin) => pipeline.run(ways.password, input, origin),
    /** Mails the code that `withEmailCode` then signs in with. */
    sendEmailCode: createLoginCodeSender(deps),
    withEmailCode: (input: { email: string; code: string }, origin: RequestOrigin) => pipeline.run(ways.emailCode, input, origin),
    withSecondStep: (input: { mfa_token: string } & FactorProof, origin: RequestOrigin) => pipeline.runToSession(ways.secondStep, input, origin),
    /** Mails another code to a pending sign-in of the email method (the second factor keeps its limits). */
    resendSecondStep: (mfaToken: string, origin: RequestOrigin) => deps.secondFactor.resend(mfaToken, origin),
    restore: (restoreToken: string, origin: RequestOrigin) => pipeline.runToSession(ways.restore, restoreToken, origin),
  };
}
