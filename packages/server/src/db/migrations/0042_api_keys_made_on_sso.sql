-- Whether a personal API key was made on a session the person's organization's IdP signed in:
-- requiring SSO keeps such keys (as it keeps such sessions) and revokes the member's others.
ALTER TABLE "api_keys" ADD COLUMN "made_on_sso" boolean DEFAULT false NOT NULL;
