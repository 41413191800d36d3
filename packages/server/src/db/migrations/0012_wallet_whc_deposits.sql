-- WHC deposits: each person gets a BEP20 deposit address derived from the configured
-- extended public key (WHC_DEPOSIT_XPUB) at their own index; the follower reads the token's
-- Transfer logs to those addresses and credits each (tx hash, log index) once, after
-- WHC_CONFIRMATIONS blocks. Self-contained: it needs only users and wallet_entries.
CREATE SEQUENCE "wallet_whc_deposit_address_index" AS integer MINVALUE 0 START WITH 0 MAXVALUE 2147483647 NO CYCLE;
--> statement-breakpoint
CREATE TABLE "wallet_whc_deposit_addresses" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	-- The non-hardened child of the extended public key (a gap left by a lost race is harmless).
	"address_index" integer NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_whc_deposit_addresses_index" CHECK ("address_index" >= 0),
	CONSTRAINT "wallet_whc_deposit_addresses_address" CHECK ("address" ~ '^0x[0-9a-fA-F]{40}$')
);
--> statement-breakpoint
ALTER TABLE "wallet_whc_deposit_addresses" ADD CONSTRAINT "wallet_whc_deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_whc_deposit_addresses_index_key" ON "wallet_whc_deposit_addresses" USING btree ("address_index");
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_whc_deposit_addresses_address_key" ON "wallet_whc_deposit_addresses" USING btree ("address");
--> statement-breakpoint
-- Where the follower is: the next block not yet scanned, and the chain's head at the last scan
-- (the confirmations shown). A node claims the row (FOR UPDATE SKIP LOCKED) for its poll.
CREATE TABLE "wallet_chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"next_block" bigint NOT NULL,
	"head_block" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_chain_cursors_next_block" CHECK ("next_block" >= 0)
);
--> statement-breakpoint
-- One incoming token transfer to a deposit address: pending (seen, not yet confirmed), completed
-- (credited: the ledger entry) or ignored (less than 10^-8 WHC, or more than the ledger holds).
CREATE TABLE "wallet_whc_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"from_address" text NOT NULL,
	-- The token's units as sent (up to 78 digits), and what the ledger credits (8 decimals).
	"amount_token" numeric(78, 0) NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone,
	CONSTRAINT "wallet_whc_deposits_amount" CHECK ("amount_minor" >= 0 AND "amount_token" >= 0),
	CONSTRAINT "wallet_whc_deposits_status" CHECK ("status" IN ('pending', 'completed', 'ignored')),
	CONSTRAINT "wallet_whc_deposits_credited" CHECK (("status" = 'completed') = ("entry_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "wallet_whc_deposits" ADD CONSTRAINT "wallet_whc_deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_whc_deposits" ADD CONSTRAINT "wallet_whc_deposits_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_whc_deposits_log_key" ON "wallet_whc_deposits" USING btree ("tx_hash", "log_index");
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_whc_deposits_entry_key" ON "wallet_whc_deposits" USING btree ("entry_id") WHERE "entry_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "wallet_whc_deposits_user" ON "wallet_whc_deposits" USING btree ("user_id", "created_at");
--> statement-breakpoint
CREATE INDEX "wallet_whc_deposits_pending" ON "wallet_whc_deposits" USING btree ("block_number") WHERE "status" = 'pending';
