-- Queueing an event, at a quarter of its cost. 0044's "webhook_enqueue" was one INSERT ... SELECT
-- over the endpoints with the grant's scopes in a lateral subquery: PostgreSQL pulled that
-- subquery up into each use of its column, so it read the scopes three times, and each call of
-- "webhook_granted_scopes" (a SQL function it cannot inline) is parsed and planned anew; the
-- INSERT itself was planned again at every call for its parameters. That was about 0.4 ms of a
-- database backend per event and endpoint, a new account's or a profile change's. Now a loop over
-- the endpoints that chose the event reads the scopes once each and inserts a plain row: PL/pgSQL
-- keeps the plans of these simple statements for the connection. The rules are 0044's, spelled
-- with 0046's "webhook_allowed"; docs/benchmarks.md, "What queueing an event costs", has the figures.
CREATE OR REPLACE FUNCTION "webhook_enqueue"(event_type text, event_subject uuid, event_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	event uuid := gen_random_uuid();
	endpoint record;
	scopes text[];
BEGIN
	FOR endpoint IN SELECT e."client_id" FROM "webhook_endpoints" e WHERE e."enabled" AND event_type = ANY (e."events") LOOP
		scopes := "webhook_granted_scopes"(event_subject::text, endpoint."client_id");
		-- 0044's rule is 0046's "webhook_allowed", with user.deleted also going to the apps the person had allowed (0036).
		IF "webhook_allowed"(event_type, scopes)
			OR (event_type = 'user.deleted' AND EXISTS (
				SELECT 1 FROM "webhook_deletion_audiences" a
				WHERE a."account_id" = event_subject::text AND a."client_id" = endpoint."client_id"
			)) THEN
			INSERT INTO "webhook_deliveries" ("event_id", "client_id", "type", "subject", "payload")
			VALUES (event, endpoint."client_id", event_type, event_subject,
				jsonb_build_object('type', event_type, 'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', "webhook_released"(event_data, scopes)));
		END IF;
	END LOOP;
	IF event_type = 'user.deleted' THEN
		DELETE FROM "webhook_deletion_audiences" WHERE "account_id" = event_subject::text;
	END IF;
END
$$;
