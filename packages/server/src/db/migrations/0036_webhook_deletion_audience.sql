-- user.deleted reaches every app the person ever allowed. 0034 chose its recipients by a live
-- grant, as for every event; but a grant expires, and the provider's hourly sweep deletes
-- expired ones, so an app the person signed in to months ago (whose copy of the account is
-- exactly what the deletion asks it to drop) was never told. Each (account, app) pair a grant
-- was ever stored for is remembered here, whatever becomes of the grant (expiry, sweep, the
-- person revoking the app); the account's deletion queues user.deleted to the apps it names that
-- subscribe, then forgets them. Other events still go only where a grant is live (0034).
CREATE TABLE "webhook_deletion_audiences" (
	"account_id" text NOT NULL,
	"client_id" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deletion_audiences_pkey" PRIMARY KEY ("account_id", "client_id")
);
--> statement-breakpoint
INSERT INTO "webhook_deletion_audiences" ("account_id", "client_id")
	SELECT DISTINCT "account_id", "client_id" FROM "oidc_models"
	WHERE "model" = 'Grant' AND "account_id" IS NOT NULL AND "client_id" IS NOT NULL
	ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "webhook_remember_grant"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "webhook_deletion_audiences" ("account_id", "client_id") VALUES (NEW."account_id", NEW."client_id") ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "oidc_models_grant_remembered" AFTER INSERT OR UPDATE OF "account_id", "client_id" ON "oidc_models"
	FOR EACH ROW WHEN (NEW."model" = 'Grant' AND NEW."account_id" IS NOT NULL AND NEW."client_id" IS NOT NULL) EXECUTE FUNCTION "webhook_remember_grant"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "webhook_enqueue"(event_type text, event_subject uuid, event_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	event uuid := gen_random_uuid();
BEGIN
	INSERT INTO "webhook_deliveries" ("event_id", "client_id", "type", "subject", "payload")
	SELECT event, e."client_id", event_type, event_subject,
		jsonb_build_object('type', event_type, 'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', event_data)
	FROM "webhook_endpoints" e
	WHERE e."enabled" AND event_type = ANY (e."events")
		AND (
			EXISTS (
				SELECT 1 FROM "oidc_models" g
				WHERE g."account_id" = event_subject::text AND g."model" = 'Grant' AND g."client_id" = e."client_id"
					AND (g."expires_at" IS NULL OR g."expires_at" > now())
			)
			OR (event_type = 'user.deleted' AND EXISTS (
				SELECT 1 FROM "webhook_deletion_audiences" a
				WHERE a."account_id" = event_subject::text AND a."client_id" = e."client_id"
			))
		);
	IF event_type = 'user.deleted' THEN
		DELETE FROM "webhook_deletion_audiences" WHERE "account_id" = event_subject::text;
	END IF;
END
$$;
