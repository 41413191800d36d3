import { interactionPolicy } from 'oidc-provider';
import { ACR_MULTI, multiFactorRequired, portalIdentities } from './portal-identity';

/**
 * The provider's interaction policy: its base prompts, with a login that holds only while the
 * portal session it came from does, and that has the factors the app asks for.
 */
export function loginPolicy(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  // One session: the provider's login holds only while the portal session it came from does
  // (signed out, revoked, or another person signed in on this browser: ask again).
  policy.get('login')!.checks.push(
    new interactionPolicy.Check('portal_session', 'the portal session ended or changed', 'login_required', (ctx) => {
      const portal = portalIdentities.get(ctx.req);
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return portal?.userId === accountId ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
    // Step-up: an app that accepts only more than one factor sends a single-factor login back
    // to the interaction, which asks the person to sign in again with their second step.
    new interactionPolicy.Check('multi_factor_required', 'the app asks for more than one factor', 'login_required', (ctx) => {
      if (!multiFactorRequired(ctx.oidc.params ?? {})) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return ctx.oidc.session?.acr === ACR_MULTI ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}
