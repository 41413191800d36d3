-- An event tells an app only what the person allowed it to read (0031 said so of the payload,
-- "the claims it could read at sign-in", but sent every app the whole person). The live grant
-- that lets an app hear of a person (0034) also says what it may learn: the scopes of its
-- consent (`openid.scope` of the provider's Grant row). `email` releases the email (and an
-- email change: without it, user.email_changed is not sent at all); `profile` the name,
-- username, language and time of the change (OpenID Connect's profile claims: name,
-- preferred_username, locale, updated_at). `id`, the ID token's `sub`, always goes. Membership
-- events (an organization and a role: no claim releases them) go only to apps allowed `profile`,
-- more of who the person is than `openid` alone. user.deleted (the id) is unchanged; so is who
-- hears at all (0034, 0036). What is already queued or logged (a redelivery sends a logged event
-- again) is cut the same way, by the app's grant now; with none left, to the id.
-- The scopes of an app's live grants for a person (one, as the provider keeps them); null when
-- none is live, so the app hears nothing of the person (0034).
CREATE FUNCTION "webhook_granted_scopes"(account text, client text) RETURNS text[] LANGUAGE sql STABLE AS $$
	SELECT CASE WHEN count(*) = 0 THEN NULL ELSE string_to_array(coalesce(string_agg(g."payload" #>> '{openid,scope}', ' '), ''), ' ') END
	FROM "oidc_models" g
	WHERE g."account_id" = account AND g."model" = 'Grant' AND g."client_id" = client
		AND (g."expires_at" IS NULL OR g."expires_at" > now())
$$;
--> statement-breakpoint
-- Without a scope (none granted, or no grant: null) only the keys no claim names are left.
CREATE FUNCTION "webhook_released"(event_data jsonb, scopes text[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
	SELECT event_data
		- (CASE WHEN 'email' = ANY (scopes) THEN ARRAY[]::text[] ELSE ARRAY['email', 'previous_email'] END)
		- (CASE WHEN 'profile' = ANY (scopes) THEN ARRAY[]::text[] ELSE ARRAY['name', 'username', 'language', 'updated_at'] END)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "webhook_enqueue"(event_type text, event_subject uuid, event_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	event uuid := gen_random_uuid();
BEGIN
	INSERT INTO "webhook_deliveries" ("event_id", "client_id", "type", "subject", "payload")
	SELECT event, e."client_id", event_type, event_subject,
		jsonb_build_object('type', event_type, 'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', "webhook_released"(event_data, granted."scopes"))
	FROM "webhook_endpoints" e
	CROSS JOIN LATERAL (SELECT "webhook_granted_scopes"(event_subject::text, e."client_id") AS "scopes") granted
	WHERE e."enabled" AND event_type = ANY (e."events")
		AND (
			granted."scopes" IS NOT NULL
			OR (event_type = 'user.deleted' AND EXISTS (
				SELECT 1 FROM "webhook_deletion_audiences" a
				WHERE a."account_id" = event_subject::text AND a."client_id" = e."client_id"
			))
		)
		AND (event_type <> 'user.email_changed' OR 'email' = ANY (granted."scopes"))
		AND (event_type NOT LIKE 'organization.%' OR 'profile' = ANY (granted."scopes"));
	IF event_type = 'user.deleted' THEN
		DELETE FROM "webhook_deletion_audiences" WHERE "account_id" = event_subject::text;
	END IF;
END
$$;
--> statement-breakpoint
UPDATE "webhook_deliveries" SET "payload" = jsonb_set("payload", '{data}', "webhook_released"("payload" -> 'data', "webhook_granted_scopes"("subject"::text, "client_id")))
WHERE "type" LIKE 'user.%';
