-- The wallet's double-entry ledger: accounts (a person's per currency, or the system's), entries
-- (one movement: a transfer, a deposit, an adjustment), postings (each entry's lines, summing to
-- zero per currency, checked when the transaction commits).
CREATE TABLE "wallet_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"system_name" text,
	"currency" text NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_accounts_owner" CHECK (("user_id" IS NULL) <> ("system_name" IS NULL)),
	-- A person's balance can never go negative; the system's accounts (where money comes from) can.
	CONSTRAINT "wallet_accounts_no_overdraft" CHECK ("user_id" IS NULL OR "balance" >= 0),
	CONSTRAINT "wallet_accounts_currency" CHECK ("currency" IN ('USD', 'VND', 'WHC'))
);
--> statement-breakpoint
ALTER TABLE "wallet_accounts" ADD CONSTRAINT "wallet_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_accounts_user_currency" ON "wallet_accounts" USING btree ("user_id", "currency") WHERE "user_id" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_accounts_system_currency" ON "wallet_accounts" USING btree ("system_name", "currency") WHERE "system_name" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "wallet_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"initiated_by" uuid,
	"idempotency_key" text,
	"request_digest" text,
	"destination" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_entries_idempotency" ON "wallet_entries" USING btree ("initiated_by", "idempotency_key") WHERE "idempotency_key" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "wallet_postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_postings_nonzero" CHECK ("amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "wallet_postings" ADD CONSTRAINT "wallet_postings_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_postings" ADD CONSTRAINT "wallet_postings_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."wallet_accounts"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "wallet_postings_account" ON "wallet_postings" USING btree ("account_id", "id");
--> statement-breakpoint
CREATE INDEX "wallet_postings_entry" ON "wallet_postings" USING btree ("entry_id");
--> statement-breakpoint
-- An entry's postings sum to zero in each currency: checked at commit, so the lines of one entry
-- may be written one by one inside its transaction.
CREATE FUNCTION "wallet_entry_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM "wallet_postings" WHERE "entry_id" = NEW."entry_id"
		GROUP BY "currency" HAVING sum("amount") <> 0
	) THEN
		RAISE EXCEPTION 'wallet entry % does not balance', NEW."entry_id" USING ERRCODE = 'check_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "wallet_postings_balanced" AFTER INSERT OR UPDATE ON "wallet_postings"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "wallet_entry_balanced"();
--> statement-breakpoint
-- Postings are history: never changed or removed.
CREATE FUNCTION "wallet_postings_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'wallet postings are append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "wallet_postings_no_change" BEFORE UPDATE OR DELETE ON "wallet_postings"
	FOR EACH ROW EXECUTE FUNCTION "wallet_postings_append_only"();
--> statement-breakpoint
-- What each person has sent per currency and day: the daily limit is one atomic upsert.
CREATE TABLE "wallet_daily_usage" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "wallet_daily_usage_pk" PRIMARY KEY ("user_id", "currency", "day")
);
--> statement-breakpoint
ALTER TABLE "wallet_daily_usage" ADD CONSTRAINT "wallet_daily_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
