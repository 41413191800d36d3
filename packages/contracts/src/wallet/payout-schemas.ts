import { z } from 'zod';
import { walletCurrencySchema } from './schemas';

/**
 * Researcher rewards (posted by the bug-bounty platform's back end), the researcher's payout
 * settings and statements, and their public profile.
 */

/** Integer minor units above zero, as a string (`"1250"` is $12.50, WHC has eight decimals). */
const positiveMinorSchema = z.string().regex(/^[1-9]\d{0,14}$/);

/** What the product sends: its own id of the reward (idempotent), the researcher, how much, for which program. */
export const rewardRequestSchema = z.object({
  reward_id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/),
  /** The researcher's user id (`sub` of their ID tokens) or email. */
  researcher: z.string().trim().min(1).max(254),
  program_alias: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/),
  currency: walletCurrencySchema,
  amount_minor: positiveMinorSchema,
  status: z.literal('approved'),
});
export type RewardRequest = z.infer<typeof rewardRequestSchema>;

export const rewardStatusSchema = z.enum(['approved', 'paid', 'canceled']);

export const rewardSchema = z.object({
  reward_id: z.string(),
  researcher_id: z.string(),
  program_alias: z.string(),
  currency: walletCurrencySchema,
  amount_minor: z.string(),
  status: rewardStatusSchema,
  created_at: z.string(),
  paid_at: z.string().nullable(),
  canceled_at: z.string().nullable(),
});
export type Reward = z.infer<typeof rewardSchema>;

export const rewardIdParamsSchema = z.object({ reward_id: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/) });

/** A reward as its researcher sees it (waiting for the next payout, or in a statement). */
export const researcherRewardSchema = z.object({
  id: z.string(),
  program_alias: z.string(),
  currency: walletCurrencySchema,
  amount_minor: z.string(),
  created_at: z.string(),
});

/** One monthly statement line: the rewards of one currency paid by one entry into the wallet. */
export const payoutStatementSchema = z.object({
  id: z.string(),
  period: z.string(),
  currency: walletCurrencySchema,
  amount_minor: z.string(),
  transaction_id: z.string(),
  created_at: z.string(),
  rewards: z.array(researcherRewardSchema),
});
export type PayoutStatement = z.infer<typeof payoutStatementSchema>;

export const payoutSettingsSchema = z.object({
  /** The wallet rewards in that currency are paid to; rewards in another currency go to the wallet of their own currency (no conversion). Null: rewards wait until one is chosen. */
  payout_currency: walletCurrencySchema.nullable(),
  profile_public: z.boolean(),
  /** The public profile's address part; null when the account has no username (no public profile then). */
  username: z.string().nullable(),
  /** The date (YYYY-MM-DD, UTC) of the next payout. */
  next_payout: z.string(),
  pending: z.array(researcherRewardSchema),
  statements: z.array(payoutStatementSchema),
});
export type PayoutSettings = z.infer<typeof payoutSettingsSchema>;

export const payoutMethodRequestSchema = z.object({ payout_currency: walletCurrencySchema });
export const researcherProfileRequestSchema = z.object({ profile_public: z.boolean() });

/** A researcher's public profile: nothing private (no email, no amounts). */
export const researcherProfileSchema = z.object({
  username: z.string(),
  display_name: z.string(),
  accepted_programs: z.number().int(),
});
export type ResearcherProfile = z.infer<typeof researcherProfileSchema>;
