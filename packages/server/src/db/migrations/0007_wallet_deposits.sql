-- VND deposits by bank transfer: an order with a reference the person writes in the transfer's
-- content, credited once when the bank's signed notification reports its amount and reference.
CREATE TABLE "wallet_deposit_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"currency" text DEFAULT 'VND' NOT NULL,
	"amount_minor" bigint NOT NULL,
	"reference" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"bank_transaction_id" text,
	"entry_id" uuid,
	CONSTRAINT "wallet_deposit_orders_currency" CHECK ("currency" = 'VND'),
	CONSTRAINT "wallet_deposit_orders_amount" CHECK ("amount_minor" > 0),
	CONSTRAINT "wallet_deposit_orders_status" CHECK ("status" IN ('pending', 'paid', 'expired')),
	-- Paid means credited: the bank's transaction and the ledger entry are both there, and only then.
	CONSTRAINT "wallet_deposit_orders_paid" CHECK (("status" = 'paid') = ("paid_at" IS NOT NULL AND "bank_transaction_id" IS NOT NULL AND "entry_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "wallet_deposit_orders" ADD CONSTRAINT "wallet_deposit_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "wallet_deposit_orders" ADD CONSTRAINT "wallet_deposit_orders_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."wallet_entries"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_deposit_orders_reference" ON "wallet_deposit_orders" USING btree ("reference");
--> statement-breakpoint
-- One bank transaction credits at most one order: a replayed notification finds it paid.
CREATE UNIQUE INDEX "wallet_deposit_orders_bank_transaction" ON "wallet_deposit_orders" USING btree ("bank_transaction_id") WHERE "bank_transaction_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "wallet_deposit_orders_user" ON "wallet_deposit_orders" USING btree ("user_id", "created_at");
