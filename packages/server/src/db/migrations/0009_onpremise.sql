CREATE TABLE "organization_deployments" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"base_api" text NOT NULL,
	"login_url" text NOT NULL,
	"activated" boolean DEFAULT true NOT NULL,
	"require_passwordless" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_deployments_base_api_https" CHECK ("base_api" LIKE 'https://%')
);
--> statement-breakpoint
ALTER TABLE "organization_deployments" ADD CONSTRAINT "organization_deployments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
