-- Every node keeps the access tokens and client-credentials tokens it has just issued or read,
-- with their grant, for introspection and userinfo (modules/oauth: token-cache.ts). This trigger
-- announces on 'oauth_changes' each such token, and each grant, that a statement deletes or
-- changes, so that every node forgets it as the change commits, whichever path made it (the
-- revocation endpoint, a replayed refresh token, a consent revoked, sessions ended, an app
-- deleted). Rows already expired are left out (the sweep's deletes): no node answers them.
-- Inserts announce nothing: a new token is unknown to every node until its id is presented.
CREATE FUNCTION "notify_oidc_token_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF OLD.model = 'Grant' THEN
		PERFORM pg_notify('oauth_changes', 'grant:' || OLD.id);
	ELSE
		PERFORM pg_notify('oauth_changes', 'token:' || OLD.id);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "oidc_tokens_change" AFTER UPDATE OR DELETE ON "oidc_models"
	FOR EACH ROW
	WHEN (OLD.model IN ('AccessToken', 'ClientCredentials', 'Grant') AND (OLD.expires_at IS NULL OR OLD.expires_at > now()))
	EXECUTE FUNCTION "notify_oidc_token_change"();
