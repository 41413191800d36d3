-- The operators' dashboard: events no other table keeps for 30 days, counted per metric and hour
-- (one atomic upsert each), and sign-ups by day without reading every account.
CREATE TABLE "dashboard_counters" (
	"metric" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_counters_metric_hour_pk" PRIMARY KEY("metric","hour")
);
--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");
