-- Signing keys are published before they sign: a rotated key is in every node's JWKS before any node signs with it.
ALTER TABLE "oidc_keys" ADD COLUMN "activates_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
UPDATE "oidc_keys" SET "activates_at" = "created_at";
