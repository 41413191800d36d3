-- The organization audit log stays append-only, with one exception: the deletion purge of an
-- account replaces the person's addresses by the purged account's (`deleted-<id>@deleted.invalid`)
-- and clears the IP and browser of what they did. Every other change, any delete and truncate
-- are still refused; the entries themselves (what happened, when, in which organization) stay.
CREATE OR REPLACE FUNCTION "organization_audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE'
		AND NEW.id = OLD.id
		AND NEW.organization_id = OLD.organization_id
		AND NEW.occurred_at = OLD.occurred_at
		AND NEW.action = OLD.action
		AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id
		AND NEW.target_user_id IS NOT DISTINCT FROM OLD.target_user_id
		AND NEW.detail = OLD.detail
		AND (NEW.actor_email IS NOT DISTINCT FROM OLD.actor_email OR NEW.actor_email ~ '^deleted-[0-9a-f-]{36}@deleted\.invalid$')
		AND (NEW.target_email IS NOT DISTINCT FROM OLD.target_email OR NEW.target_email ~ '^deleted-[0-9a-f-]{36}@deleted\.invalid$')
		AND (NEW.ip IS NOT DISTINCT FROM OLD.ip OR NEW.ip IS NULL)
		AND (NEW.user_agent IS NOT DISTINCT FROM OLD.user_agent OR NEW.user_agent IS NULL)
	THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'organization_audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
