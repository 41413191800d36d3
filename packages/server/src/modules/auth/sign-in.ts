import type { RequestOrigin } from '../../platform/request-origin';
import type { FactorProof } from '../mfa';
import { createSignInPipeline, type SignInDependencies } from './pipeline';
import { createWaysIn, type WaysInDependencies } from './ways-in';

export type SignIn = ReturnType<typeof createSignIn>;

/** The sign-in pipeline with the ways in the auth module knows: what routes and other modules call. */
export function createSignIn(deps: SignInDependencies & WaysInDependencies) {
  const pipeline = createSignInPipeline(deps);
  const ways = createWaysIn(deps);
  return {
    /** Any way in, such as a passkey (modules/passkeys) or, later, a social or company identity. */
    run: pipeline.run,
    withPassword: (input: { email: string; password: string; captcha?: string }, origin: RequestOrigin) => pipeline.run(ways.password, input, origin),
    withEmailCode: (input: { email: string; code: string }, origin: RequestOrigin) => pipeline.run(ways.emailCode, input, origin),
    withSecondStep: (input: { mfa_token: string } & FactorProof, origin: RequestOrigin) => pipeline.runToSession(ways.secondStep, input, origin),
    restore: (restoreToken: string, origin: RequestOrigin) => pipeline.runToSession(ways.restore, restoreToken, origin),
  };
}
