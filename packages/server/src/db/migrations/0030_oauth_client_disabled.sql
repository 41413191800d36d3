-- An operator may disable an outside app: the provider then finds no such client, so it signs nobody in and refreshes no token, on every node at once.
ALTER TABLE "oauth_clients" ADD COLUMN "disabled_at" timestamp with time zone;
