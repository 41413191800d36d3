-- Moderators of a product's websites: invited by a product's back end, accepted by the invited person, notified of the website's security analyses.
CREATE TABLE "website_moderators" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"service_scope" text NOT NULL,
	"website_id" text NOT NULL,
	"website_name" text NOT NULL,
	"email" text NOT NULL,
	"language" text,
	"token_hash" text NOT NULL,
	"user_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"signup_claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "website_moderators" ADD CONSTRAINT "website_moderators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "website_moderators_token_key" ON "website_moderators" USING btree ("token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "website_moderators_live_key" ON "website_moderators" USING btree ("client_id","website_id","email") WHERE "revoked_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "website_moderators_email_idx" ON "website_moderators" USING btree ("email");
--> statement-breakpoint
CREATE INDEX "website_moderators_user_idx" ON "website_moderators" USING btree ("user_id");
