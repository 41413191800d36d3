-- Every node keeps signed-in sessions and their users in memory (modules/sessions/identity-cache).
-- These triggers tell every node, through LISTEN/NOTIFY on 'identity_changes', which user's
-- entries are stale: any change to a user, and a session revoked, re-dated or deleted.
-- NOTIFY is transactional: nothing is announced for a rolled-back change.
CREATE FUNCTION "notify_identity_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_TABLE_NAME = 'users' THEN
		PERFORM pg_notify('identity_changes', OLD.id::text);
	ELSE
		PERFORM pg_notify('identity_changes', OLD.user_id::text);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_identity_change" AFTER UPDATE OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "notify_identity_change"();
--> statement-breakpoint
CREATE TRIGGER "sessions_identity_change" AFTER UPDATE OF "revoked_at", "expires_at", "user_id" OR DELETE ON "sessions"
	FOR EACH ROW EXECUTE FUNCTION "notify_identity_change"();
