-- The organization audit log: security events of an organization's members and the
-- changes to its membership, kept append-only by the database itself. No foreign keys on
-- purpose: the log outlives the organization and the people it names (a purged account keeps
-- its entries as written), so nothing ever has to delete or update a row of it.
CREATE TABLE "organization_audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" uuid,
	"actor_email" text,
	"target_user_id" uuid,
	"target_email" text,
	"ip" text,
	"user_agent" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
-- Newest first per organization (keyset paging on occurred_at, id).
CREATE INDEX "organization_audit_events_org_idx" ON "organization_audit_events" USING btree ("organization_id","occurred_at" DESC,"id" DESC);
--> statement-breakpoint
CREATE FUNCTION "organization_audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'organization_audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "organization_audit_events_no_change" BEFORE UPDATE OR DELETE ON "organization_audit_events"
	FOR EACH ROW EXECUTE FUNCTION "organization_audit_events_append_only"();
--> statement-breakpoint
CREATE TRIGGER "organization_audit_events_no_truncate" BEFORE TRUNCATE ON "organization_audit_events"
	FOR EACH STATEMENT EXECUTE FUNCTION "organization_audit_events_append_only"();
