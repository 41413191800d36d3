-- One subscription start at a time per person and product. A start claims its row here in one
-- statement (a lease, taken over once it lapses) before it charges, so two requests at once
-- with different idempotency keys cannot both pass the "no live subscription" check and both
-- charge. The generation names the start's charge: a start whose node died is taken over with
-- the same charge key (the processor answers the first charge), a finished one moves it on.
CREATE TABLE "subscription_starts" (
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"product" text NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	PRIMARY KEY ("user_id", "product")
);
