-- An operator may hold a researcher's approved rewards: the monthly payout run skips them until
-- an operator approves the payout (which pays them at once).
ALTER TABLE "wallet_rewards" ADD COLUMN "held_at" timestamp with time zone;
--> statement-breakpoint
-- An AppSumo code revoked by an operator before anyone redeemed it: its hash is recorded as
-- taken (no user, no subscription), so redeeming it is refused like a used code.
ALTER TABLE "license_redemptions" ADD COLUMN "revoked_at" timestamp with time zone;
