CREATE TABLE "company_sso_connections" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"kind" text NOT NULL,
	"oidc_issuer" text,
	"oidc_client_id" text,
	"oidc_client_secret" text,
	"saml_entity_id" text,
	"saml_sso_url" text,
	"saml_certificates" jsonb,
	"require_sso" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_sso_connections_kind" CHECK ("kind" IN ('oidc', 'saml')),
	CONSTRAINT "company_sso_connections_identifier_form" CHECK ("identifier" ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$')
);
--> statement-breakpoint
ALTER TABLE "company_sso_connections" ADD CONSTRAINT "company_sso_connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "company_sso_connections_identifier_key" ON "company_sso_connections" USING btree ("identifier");
--> statement-breakpoint
CREATE TABLE "company_sso_domains" (
	"organization_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"dns_token" text NOT NULL,
	"verified_at" timestamp with time zone,
	"verified_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_sso_domains_organization_id_domain_pk" PRIMARY KEY("organization_id","domain")
);
--> statement-breakpoint
ALTER TABLE "company_sso_domains" ADD CONSTRAINT "company_sso_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "company_sso_domains_verified_key" ON "company_sso_domains" USING btree ("domain") WHERE "verified_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "company_sso_identities" (
	"organization_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "company_sso_identities_organization_id_subject_pk" PRIMARY KEY("organization_id","subject")
);
--> statement-breakpoint
ALTER TABLE "company_sso_identities" ADD CONSTRAINT "company_sso_identities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "company_sso_identities" ADD CONSTRAINT "company_sso_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "company_sso_identities_org_user_key" ON "company_sso_identities" USING btree ("organization_id","user_id");
--> statement-breakpoint
CREATE TABLE "company_sso_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"brand" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"handoff_hash" text,
	"subject" text,
	"email" text,
	"full_name" text,
	"handoff_expires_at" timestamp with time zone,
	"handoff_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_sso_requests" ADD CONSTRAINT "company_sso_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "company_sso_requests_handoff_key" ON "company_sso_requests" USING btree ("handoff_hash");
