-- Transfers to a partner exchange wallet: the ledger entry moves the amount from the
-- person to the system's `partner_clearing` account (pending); this row follows the transfer at
-- the partner until its signed callback says completed, or rejected (the amount returned by a
-- reversing entry, exactly once).
CREATE TABLE "wallet_partner_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"recipient" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"note" text,
	"status" text DEFAULT 'pending' NOT NULL,
	-- When the partner acknowledged the request (null: not delivered yet, sent again by the job).
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"partner_reference" text,
	"reason" text,
	"refund_entry_id" uuid,
	-- The UTC day whose allowance the transfer used (given back when it is rejected).
	"allowance_day" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_partner_transfers_amount" CHECK ("amount_minor" > 0),
	CONSTRAINT "wallet_partner_transfers_status" CHECK ("status" IN ('pending', 'completed', 'rejected')),
	-- Rejected means refunded: the reversing entry is there, and only then.
	CONSTRAINT "wallet_partner_transfers_refund" CHECK (("status" = 'rejected') = ("refund_entry_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "wallet_partner_transfers" ADD CONSTRAINT "wallet_partner_transfers_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_partner_transfers" ADD CONSTRAINT "wallet_partner_transfers_refund_entry_id_fk" FOREIGN KEY ("refund_entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_partner_transfers" ADD CONSTRAINT "wallet_partner_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_partner_transfers_entry" ON "wallet_partner_transfers" USING btree ("entry_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_partner_transfers_refund" ON "wallet_partner_transfers" USING btree ("refund_entry_id") WHERE "refund_entry_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "wallet_partner_transfers_unsent" ON "wallet_partner_transfers" USING btree ("created_at") WHERE "status" = 'pending' AND "sent_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "wallet_partner_transfers_user" ON "wallet_partner_transfers" USING btree ("user_id", "created_at");
--> statement-breakpoint
-- A WHC withdrawal stuck with too low a gas price is signed again with the same nonce and a
-- higher price (`npm run wallet -- resend`): the hashes it replaced are kept, since whichever of
-- them the chain mines (only one can: one nonce) is the transfer the follower settles.
ALTER TABLE "wallet_chain_withdrawals" ADD COLUMN "replaced_tx_hashes" text[] DEFAULT '{}' NOT NULL;
