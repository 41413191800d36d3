-- Events to products (modules/webhooks, migration 0031) only about people who allowed the app.
-- 0031 queued an event for every endpoint that chose its type, so an outside app heard of every
-- account, people who never signed in to it included. An endpoint now gets a person's event only
-- when that person has a live grant (the consent the OpenID provider stores in `oidc_models`,
-- model 'Grant', by `account_id` and `client_id`: what the account's connected apps list) with
-- the endpoint's app at the moment of the change. The triggers are unchanged: they call this.
-- The deletion purge deletes the person's grants last (after the memberships and the account
-- row), so the apps the person had allowed still hear organization.member_removed and
-- user.deleted; a revoked or expired grant hears nothing more.
CREATE OR REPLACE FUNCTION "webhook_enqueue"(event_type text, event_subject uuid, event_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	event uuid := gen_random_uuid();
BEGIN
	INSERT INTO "webhook_deliveries" ("event_id", "client_id", "type", "subject", "payload")
	SELECT event, e."client_id", event_type, event_subject,
		jsonb_build_object('type', event_type, 'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', event_data)
	FROM "webhook_endpoints" e
	WHERE e."enabled" AND event_type = ANY (e."events")
		AND EXISTS (
			SELECT 1 FROM "oidc_models" g
			WHERE g."account_id" = event_subject::text AND g."model" = 'Grant' AND g."client_id" = e."client_id"
				AND (g."expires_at" IS NULL OR g."expires_at" > now())
		);
END
$$;
