-- Events to products (modules/webhooks): each outside app may name one endpoint and the events
-- it wants; every change to an account or a membership is queued for those endpoints by the
-- triggers below, in the transaction of the change itself. Whatever writes the row (a route, a
-- job, a command-line tool, a hand-typed statement), the event is queued if and only if the
-- change commits: nothing is lost, nothing is announced for a rolled-back change.
CREATE TABLE "webhook_endpoints" (
	"client_id" text PRIMARY KEY NOT NULL REFERENCES "oauth_clients"("client_id") ON DELETE CASCADE,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	-- The signing secret, sealed with the data key (platform/data-protection): it is needed in
	-- clear to sign, and shown to the operator once.
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One row per event and endpoint. `event_id` is the webhook-id header: the same for every
-- attempt, so a receiver drops what it has seen. `subject` is the person the event is about:
-- a person's deliveries to one endpoint go out one at a time, in `id` order.
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"client_id" text NOT NULL REFERENCES "oauth_clients"("client_id") ON DELETE CASCADE,
	"type" text NOT NULL,
	"subject" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
-- The delivery job's claim: due pending rows, oldest first.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at", "id") WHERE "status" = 'pending';
--> statement-breakpoint
-- Order per person: is an earlier delivery to this endpoint still pending?
CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" USING btree ("client_id", "subject", "id") WHERE "status" = 'pending';
--> statement-breakpoint
-- The console's log of an app, newest first.
CREATE INDEX "webhook_deliveries_client_idx" ON "webhook_deliveries" USING btree ("client_id", "id" DESC);
--> statement-breakpoint
-- The deletion purge scrubs a person's queued and logged payloads.
CREATE INDEX "webhook_deliveries_subject_idx" ON "webhook_deliveries" USING btree ("subject");
--> statement-breakpoint
-- Queues one event for every enabled endpoint that chose its type (nothing when none did).
CREATE FUNCTION "webhook_enqueue"(event_type text, event_subject uuid, event_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	event uuid := gen_random_uuid();
BEGIN
	INSERT INTO "webhook_deliveries" ("event_id", "client_id", "type", "subject", "payload")
	SELECT event, e."client_id", event_type, event_subject,
		jsonb_build_object('type', event_type, 'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', event_data)
	FROM "webhook_endpoints" e
	WHERE e."enabled" AND event_type = ANY (e."events");
END
$$;
--> statement-breakpoint
-- What a product learns of a person: the claims it could read at sign-in, nothing more.
CREATE FUNCTION "webhook_user_data"(u "users") RETURNS jsonb LANGUAGE sql STABLE AS $$
	SELECT jsonb_build_object('id', u."id", 'email', u."email", 'name', u."full_name", 'username', u."username", 'language', u."language", 'updated_at', to_char(u."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;
--> statement-breakpoint
-- An account exists for products once activated (an unproved sign-up is nobody yet); deleted
-- once purged (a requested deletion can still be cancelled). A purge scrubs the person's
-- earlier user.* payloads to their id before queueing user.deleted, which carries only the id
-- (membership payloads hold ids and a role, nothing personal).
CREATE FUNCTION "webhook_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		UPDATE "webhook_deliveries" SET "payload" = jsonb_set("payload", '{data}', jsonb_build_object('id', "subject")) WHERE "type" LIKE 'user.%' AND "subject" = OLD."id";
		PERFORM "webhook_enqueue"('user.deleted', OLD."id", jsonb_build_object('id', OLD."id"));
	ELSIF TG_OP = 'INSERT' THEN
		PERFORM "webhook_enqueue"('user.created', NEW."id", "webhook_user_data"(NEW));
	ELSIF OLD."activated_at" IS NULL THEN
		IF NEW."activated_at" IS NOT NULL AND NEW."purged_at" IS NULL THEN
			PERFORM "webhook_enqueue"('user.created', NEW."id", "webhook_user_data"(NEW));
		END IF;
	ELSIF NEW."purged_at" IS NOT NULL THEN
		UPDATE "webhook_deliveries" SET "payload" = jsonb_set("payload", '{data}', jsonb_build_object('id', "subject")) WHERE "type" LIKE 'user.%' AND "subject" = NEW."id";
		PERFORM "webhook_enqueue"('user.deleted', NEW."id", jsonb_build_object('id', NEW."id"));
	ELSIF NEW."email" IS DISTINCT FROM OLD."email" THEN
		PERFORM "webhook_enqueue"('user.email_changed', NEW."id", "webhook_user_data"(NEW) || jsonb_build_object('previous_email', OLD."email"));
	ELSIF ROW(NEW."full_name", NEW."username", NEW."language", NEW."avatar_version") IS DISTINCT FROM ROW(OLD."full_name", OLD."username", OLD."language", OLD."avatar_version") THEN
		PERFORM "webhook_enqueue"('user.updated', NEW."id", "webhook_user_data"(NEW));
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_webhook_created" AFTER INSERT ON "users"
	FOR EACH ROW WHEN (NEW."activated_at" IS NOT NULL) EXECUTE FUNCTION "webhook_user_change"();
--> statement-breakpoint
-- Only the columns products see: a sign-in's rehash or second-factor step fires nothing.
CREATE TRIGGER "users_webhook_changed" AFTER UPDATE OF "activated_at", "email", "full_name", "username", "language", "avatar_version", "purged_at" ON "users"
	FOR EACH ROW WHEN (OLD."purged_at" IS NULL) EXECUTE FUNCTION "webhook_user_change"();
--> statement-breakpoint
CREATE TRIGGER "users_webhook_deleted" AFTER DELETE ON "users"
	FOR EACH ROW WHEN (OLD."activated_at" IS NOT NULL AND OLD."purged_at" IS NULL) EXECUTE FUNCTION "webhook_user_change"();
--> statement-breakpoint
-- A member is an account in an organization: a row with a user id (an invited address with no
-- account yet is nobody's membership).
CREATE FUNCTION "webhook_member_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."user_id" IS NOT NULL AND (TG_OP = 'DELETE' OR NEW."user_id" IS DISTINCT FROM OLD."user_id") THEN
		PERFORM "webhook_enqueue"('organization.member_removed', OLD."user_id", jsonb_build_object('organization_id', OLD."organization_id", 'user_id', OLD."user_id", 'role', OLD."role"));
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."user_id" IS NOT NULL AND (TG_OP = 'INSERT' OR NEW."user_id" IS DISTINCT FROM OLD."user_id") THEN
		PERFORM "webhook_enqueue"('organization.member_added', NEW."user_id", jsonb_build_object('organization_id', NEW."organization_id", 'user_id', NEW."user_id", 'role', NEW."role"));
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "organization_members_webhook" AFTER INSERT OR DELETE OR UPDATE OF "user_id" ON "organization_members"
	FOR EACH ROW EXECUTE FUNCTION "webhook_member_change"();
