/** The refusals of researcher rewards and payouts (modules/wallet/payouts.ts). */
export const payoutErrors = {
  'payouts.researcher_not_found': { status: 400, message: 'No account has this id or email' },
  'payouts.reward_conflict': { status: 409, message: 'This reward id was already used for another reward' },
  'payouts.reward_paid': { status: 409, message: 'This reward is paid already and cannot be canceled' },
} as const;
