-- An event goes to an app as the person allows it when it is sent, not only when it was queued
-- (0044): a delivery still waiting when the person narrows their consent or removes the app
-- (its retries last about a day) must not carry what they no longer allow. The delivery job's
-- claim and an owner's redelivery both ask this of a delivery, and cut a user event's person to
-- the scopes of the app's grant now ("webhook_released"). What may go: user.deleted (the id
-- alone, to every app the person ever allowed: 0036); any event of an erased account (its
-- events were queued in the erasure while its grants were live, and cut to the id: 0044);
-- otherwise only with a live grant, user.email_changed with `email`, a membership event with
-- `profile` (the rule of "webhook_enqueue").
CREATE FUNCTION "webhook_sendable"(event_type text, event_subject uuid, scopes text[]) RETURNS boolean LANGUAGE sql STABLE AS $$
	SELECT event_type = 'user.deleted'
		OR EXISTS (SELECT 1 FROM "users" u WHERE u."id" = event_subject AND u."purged_at" IS NOT NULL)
		OR (scopes IS NOT NULL
			AND (event_type <> 'user.email_changed' OR 'email' = ANY (scopes))
			AND (event_type NOT LIKE 'organization.%' OR 'profile' = ANY (scopes)))
$$;
