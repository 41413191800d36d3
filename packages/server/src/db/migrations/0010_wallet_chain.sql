-- WHC withdrawals to a BEP20 address: the ledger entry moves the amount to the system's
-- `whc_chain_outbound` account (pending), this row follows the token transfer on chain until
-- it is confirmed (completed) or reverted (failed, the amount returned by a reversing entry).
CREATE TABLE "wallet_chain_withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	-- The signed transaction, kept before it is broadcast: a lost broadcast is sent again as the
	-- same transaction (same nonce, same hash), never as a second transfer.
	"tx_hash" text,
	"raw_tx" text,
	"signer" text,
	"nonce" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"refund_entry_id" uuid,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_chain_withdrawals_amount" CHECK ("amount_minor" > 0),
	CONSTRAINT "wallet_chain_withdrawals_status" CHECK ("status" IN ('pending', 'completed', 'failed')),
	CONSTRAINT "wallet_chain_withdrawals_address" CHECK ("address" ~ '^0x[0-9a-fA-F]{40}$'),
	-- Failed means refunded: the reversing entry is there, and only then.
	CONSTRAINT "wallet_chain_withdrawals_signed" CHECK (("tx_hash" IS NULL) = ("raw_tx" IS NULL) AND ("tx_hash" IS NULL) = ("nonce" IS NULL)),
	CONSTRAINT "wallet_chain_withdrawals_refund" CHECK (("status" = 'failed') = ("refund_entry_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "wallet_chain_withdrawals" ADD CONSTRAINT "wallet_chain_withdrawals_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_chain_withdrawals" ADD CONSTRAINT "wallet_chain_withdrawals_refund_entry_id_fk" FOREIGN KEY ("refund_entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_chain_withdrawals" ADD CONSTRAINT "wallet_chain_withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_chain_withdrawals_entry" ON "wallet_chain_withdrawals" USING btree ("entry_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_chain_withdrawals_tx_hash" ON "wallet_chain_withdrawals" USING btree ("tx_hash") WHERE "tx_hash" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "wallet_chain_withdrawals_pending" ON "wallet_chain_withdrawals" USING btree ("created_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_chain_withdrawals_signer_nonce" ON "wallet_chain_withdrawals" USING btree ("signer", "nonce") WHERE "nonce" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "wallet_chain_withdrawals_user" ON "wallet_chain_withdrawals" USING btree ("user_id", "created_at");
--> statement-breakpoint
-- The addresses a person has sent to before: a first transfer to a new one needs the password too.
CREATE TABLE "wallet_known_addresses" (
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_known_addresses_pk" PRIMARY KEY ("user_id", "address")
);
--> statement-breakpoint
ALTER TABLE "wallet_known_addresses" ADD CONSTRAINT "wallet_known_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
