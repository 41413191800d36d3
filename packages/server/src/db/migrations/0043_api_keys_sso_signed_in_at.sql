-- When the organization's IdP signed in the session a personal API key was made on (null: not
-- an SSO session). Requiring SSO keeps a key only when that sign-in came after the person
-- joined, as it keeps the session itself: made_on_sso said only whether the session was an SSO
-- one, so a key made after joining on an SSO session from before (another organization's IdP)
-- was kept while its session ended. The sign-in time of existing keys' sessions is not known:
-- left null, such a key goes with the owner's password sessions at the next sweep (the safe side).
ALTER TABLE "api_keys" ADD COLUMN "sso_signed_in_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "api_keys" DROP COLUMN "made_on_sso";
