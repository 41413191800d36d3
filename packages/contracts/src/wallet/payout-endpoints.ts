import { z } from 'zod';
import {
  payoutMethodRequestSchema,
  payoutSettingsSchema,
  researcherProfileRequestSchema,
  researcherProfileSchema,
  rewardIdParamsSchema,
  rewardRequestSchema,
  rewardSchema,
} from './payout-schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/**
 * Researcher rewards and payouts. The `/bugbounty_platform/rewards` calls are the bug-bounty
 * platform's back end's: `Authorization: Bearer <access token>` from the client-credentials
 * grant of its first-party client (service scope `bugbounty`); any other caller gets 401, another
 * product's client 403. Declared `public` because no session or API key reaches them: the route
 * checks the product's token itself.
 */
const { anyone, signedIn, sensitive } = endpointGroups('payouts');
const productErrors = ['unauthorized', 'forbidden'] as const;

export const postReward = endpointIn(anyone, 'POST /bugbounty_platform/rewards', "The bug-bounty platform records a researcher's approved reward, paid on the next 10th (product's client-credentials token). Idempotent on reward_id: the same body again answers the reward recorded first; another body with the same id is refused (409)", {
  body: rewardRequestSchema, status: 201, response: rewardSchema,
  errors: [...productErrors, 'payouts.researcher_not_found', 'payouts.reward_conflict'],
});

export const getReward = endpointIn(anyone, 'GET /bugbounty_platform/rewards/{reward_id}', "One of the product's rewards by its own id, with its status (approved, paid, canceled) (product's client-credentials token)", {
  params: rewardIdParamsSchema, response: rewardSchema, errors: [...productErrors, 'not_found'],
});

export const cancelReward = endpointIn(anyone, 'POST /bugbounty_platform/rewards/{reward_id}/cancel', "Cancels a reward not paid yet (again: answers it canceled); a paid reward is refused (409) (product's client-credentials token)", {
  params: rewardIdParamsSchema, response: rewardSchema, errors: [...productErrors, 'not_found', 'payouts.reward_paid'],
});

export const payoutSettings = endpointIn(signedIn, 'GET /sso/me/wallet/payout', 'The payout method (the wallet rewards are paid to on the 10th), the public profile switch, the approved rewards waiting and the recent monthly statements', {
  response: payoutSettingsSchema,
});

export const setPayoutMethod = endpointIn(sensitive, 'PUT /sso/me/wallet/payout', 'Chooses the wallet (currency) rewards are paid to; needs a recent proof of identity (the password)', {
  body: payoutMethodRequestSchema, response: payoutSettingsSchema, errors: ['auth.reauth_required'],
});

export const setResearcherProfile = endpointIn(signedIn, 'PUT /sso/me/wallet/payout/profile', 'Turns the public researcher profile (display name and accepted programs count) on or off; off by default', {
  body: researcherProfileRequestSchema, response: payoutSettingsSchema,
});

export const researcherProfile = endpointIn(anyone, 'GET /researchers/{username}', "A researcher's public profile: display name and the number of programs with an approved or paid reward; 404 when there is none or it is turned off; 60 lookups a minute per address", {
  params: z.object({ username: z.string().min(1).max(64) }), response: researcherProfileSchema, errors: ['not_found', 'rate_limited'],
});
