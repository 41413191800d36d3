-- Every node keeps the outside apps it serves and its signing keys in memory (modules/oauth:
-- client-cache.ts, change-feed.ts); these triggers announce each change on 'oauth_changes' so
-- that every node forgets the app, or reads its keys again, as soon as the change commits,
-- whichever process made it (the operators' console, `npm run clients`, `npm run keys`, SQL).
-- NOTIFY is transactional: nothing is announced for a rolled-back change.
CREATE FUNCTION "notify_oauth_client_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM pg_notify('oauth_changes', 'client:' || OLD.client_id);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM pg_notify('oauth_changes', 'client:' || NEW.client_id);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "oauth_clients_change" AFTER INSERT OR UPDATE OR DELETE ON "oauth_clients"
	FOR EACH ROW EXECUTE FUNCTION "notify_oauth_client_change"();
--> statement-breakpoint
CREATE FUNCTION "notify_oidc_keys_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('oauth_changes', 'keys');
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "oidc_keys_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "oidc_keys"
	FOR EACH STATEMENT EXECUTE FUNCTION "notify_oidc_keys_change"();
