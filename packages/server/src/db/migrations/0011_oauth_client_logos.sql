CREATE TABLE "oauth_client_logos" (
	"client_id" text PRIMARY KEY NOT NULL,
	"content" bytea NOT NULL,
	"version" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_client_logos" ADD CONSTRAINT "oauth_client_logos_client_id_oauth_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("client_id") ON DELETE cascade ON UPDATE no action;
