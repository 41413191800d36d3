-- Researcher rewards and their payouts on the 10th (modules/wallet/payouts.ts). Self-contained:
-- it only adds tables (and refers to users and wallet_entries, which 0000 and 0006 made).
--
-- A reward posted by a product (the bug-bounty platform's client): approved until the payout
-- job pays it (paid, with its payout) or the product cancels it (canceled). The product's own
-- id is unique per client: posting it again records nothing new.
CREATE TABLE "wallet_rewards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"external_id" text NOT NULL,
	"request_digest" text NOT NULL,
	"user_id" uuid NOT NULL,
	"program_alias" text NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" text DEFAULT 'approved' NOT NULL,
	"payout_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	CONSTRAINT "wallet_rewards_amount" CHECK ("amount_minor" > 0),
	CONSTRAINT "wallet_rewards_currency" CHECK ("currency" IN ('USD', 'VND', 'WHC')),
	CONSTRAINT "wallet_rewards_status" CHECK ("status" IN ('approved', 'paid', 'canceled')),
	-- Paid means in a payout, and only then.
	CONSTRAINT "wallet_rewards_paid" CHECK (("status" = 'paid') = ("payout_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "wallet_rewards" ADD CONSTRAINT "wallet_rewards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_rewards_external" ON "wallet_rewards" USING btree ("client_id", "external_id");
--> statement-breakpoint
CREATE INDEX "wallet_rewards_approved" ON "wallet_rewards" USING btree ("user_id", "currency") WHERE "status" = 'approved';
--> statement-breakpoint
CREATE INDEX "wallet_rewards_payout" ON "wallet_rewards" USING btree ("payout_id") WHERE "payout_id" IS NOT NULL;
--> statement-breakpoint
-- One payout: the researcher's approved rewards of one currency paid by one ledger entry (the
-- monthly statement line of their transactions). Period is the payout's month (YYYY-MM).
CREATE TABLE "wallet_payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"period" text NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"reward_count" integer NOT NULL,
	"entry_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_payouts_amount" CHECK ("amount_minor" > 0),
	CONSTRAINT "wallet_payouts_period" CHECK ("period" ~ '^\d{4}-\d{2}$')
);
--> statement-breakpoint
ALTER TABLE "wallet_payouts" ADD CONSTRAINT "wallet_payouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_payouts" ADD CONSTRAINT "wallet_payouts_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_payouts_entry" ON "wallet_payouts" USING btree ("entry_id");
--> statement-breakpoint
CREATE INDEX "wallet_payouts_user" ON "wallet_payouts" USING btree ("user_id", "created_at");
--> statement-breakpoint
-- A researcher's payout method (the wallet currency rewards in it are paid to; without one, rewards
-- wait) and whether their public profile is shown (off until they turn it on).
CREATE TABLE "researcher_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"payout_currency" text,
	"profile_public" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "researcher_settings_currency" CHECK ("payout_currency" IS NULL OR "payout_currency" IN ('USD', 'VND', 'WHC'))
);
--> statement-breakpoint
ALTER TABLE "researcher_settings" ADD CONSTRAINT "researcher_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
