-- Security alerts of sign-ins (a new device, a cancelled deletion, a linked social account) are
-- written in the sign-in's transaction and delivered after the answer by a worker on any node
-- (modules/notifications/security-alerts.ts): claimed with a lease, deleted once delivered.
CREATE TABLE "security_alerts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL REFERENCES "sessions"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"brand" text NOT NULL,
	"detail" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"claim_id" uuid,
	"notified_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "security_alerts_due_idx" ON "security_alerts" USING btree ("next_attempt_at");
--> statement-breakpoint
CREATE INDEX "security_alerts_session_idx" ON "security_alerts" USING btree ("session_id");
