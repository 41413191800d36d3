-- Operators: a role on an account (owner, support, finance; an account may hold several).
CREATE TABLE "operator_roles" (
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_roles_pkey" PRIMARY KEY ("user_id", "role"),
	CONSTRAINT "operator_roles_role_check" CHECK ("role" IN ('owner', 'support', 'finance'))
);
--> statement-breakpoint
ALTER TABLE "operator_roles" ADD CONSTRAINT "operator_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Operator API keys: the personal keys' format (pk_ + 256 bits, stored as SHA-256), limited to admin scopes.
CREATE TABLE "operator_api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_api_keys" ADD CONSTRAINT "operator_api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_api_keys_hash_key" ON "operator_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "operator_api_keys_user_idx" ON "operator_api_keys" USING btree ("user_id");--> statement-breakpoint
-- The operator audit log: every successful changing admin call, append-only.
CREATE TABLE "operator_audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" uuid,
	"actor_email" text,
	"via" text NOT NULL,
	"action" text NOT NULL,
	"summary" text NOT NULL,
	"target" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reason" text NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE INDEX "operator_audit_events_actor_idx" ON "operator_audit_events" USING btree ("actor_user_id", "id" DESC);--> statement-breakpoint
-- Append-only, except that the deletion purge of an operator's account anonymises their address
-- and clears the IP and browser of what they did; what was done, to what and why stays.
CREATE OR REPLACE FUNCTION "operator_audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE'
		AND NEW.id = OLD.id
		AND NEW.occurred_at = OLD.occurred_at
		AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id
		AND NEW.via = OLD.via
		AND NEW.action = OLD.action
		AND NEW.summary = OLD.summary
		AND NEW.target = OLD.target
		AND NEW.reason = OLD.reason
		AND (NEW.actor_email IS NOT DISTINCT FROM OLD.actor_email OR NEW.actor_email ~ '^deleted-[0-9a-f-]{36}@deleted\.invalid$')
		AND (NEW.ip IS NOT DISTINCT FROM OLD.ip OR NEW.ip IS NULL)
		AND (NEW.user_agent IS NOT DISTINCT FROM OLD.user_agent OR NEW.user_agent IS NULL)
	THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'operator_audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "operator_audit_events_append_only" BEFORE UPDATE OR DELETE ON "operator_audit_events" FOR EACH ROW EXECUTE FUNCTION "operator_audit_events_append_only"();
