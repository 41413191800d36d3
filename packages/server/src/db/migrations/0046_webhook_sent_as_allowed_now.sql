-- An event goes to an app as the person allows it when it is sent, not only when it was queued
-- (0044): a delivery still waiting when the person narrows their consent or removes the app
-- (its retries last about a day) must not carry what they no longer allow. The delivery job's
-- claim asks "webhook_sendable" of each delivery and cuts a user event's person to the scopes
-- of the app's grant now ("webhook_released"); an owner's redelivery asks "webhook_allowed" (or
-- user.deleted) of a logged one.
-- What an app with these scopes may be told (the rule of "webhook_enqueue"): nothing without a
-- live grant (null), user.email_changed only with `email`, a membership event only with `profile`.
CREATE FUNCTION "webhook_allowed"(event_type text, scopes text[]) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
	SELECT scopes IS NOT NULL
		AND (event_type <> 'user.email_changed' OR 'email' = ANY (scopes))
		AND (event_type NOT LIKE 'organization.%' OR 'profile' = ANY (scopes))
$$;
--> statement-breakpoint
-- What a waiting delivery may still carry: user.deleted (the id alone, to every app the person
-- ever allowed: 0036); what an erased account still has waiting (the erasure queues its
-- memberships' removal while its grants are live, then deletes the grants, and fails at once
-- whatever its apps were no longer allowed: "webhook_erasure_refusals" below); otherwise what
-- the grant allows now.
CREATE FUNCTION "webhook_sendable"(event_type text, event_subject uuid, scopes text[]) RETURNS boolean LANGUAGE sql STABLE AS $$
	SELECT event_type = 'user.deleted'
		OR EXISTS (SELECT 1 FROM "users" u WHERE u."id" = event_subject AND u."purged_at" IS NOT NULL)
		OR "webhook_allowed"(event_type, scopes)
$$;
--> statement-breakpoint
-- The erasure of an account (purged_at set; its grants are deleted later in the same
-- transaction) fails the deliveries of the person still waiting that their apps may no longer be
-- told, while the grants say so: the exception above lets only what was allowed at the erasure go.
CREATE FUNCTION "webhook_erasure_refusals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "webhook_deliveries" SET "status" = 'failed', "last_error" = 'not_allowed', "last_status_code" = NULL, "lease_until" = NULL
	WHERE "subject" = NEW."id" AND "status" = 'pending' AND "type" <> 'user.deleted'
		AND NOT "webhook_allowed"("type", "webhook_granted_scopes"("subject"::text, "client_id"));
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_webhook_erased" AFTER UPDATE OF "purged_at" ON "users"
	FOR EACH ROW WHEN (OLD."purged_at" IS NULL AND NEW."purged_at" IS NOT NULL) EXECUTE FUNCTION "webhook_erasure_refusals"();
