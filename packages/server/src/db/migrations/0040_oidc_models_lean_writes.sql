-- Each token grant writes rows to oidc_models and marks a code or refresh token used: the
-- provider's hottest writes. Two changes make each of them touch fewer index pages.
--
-- The lookup columns are empty on most rows (a device's user code on device codes only, a uid on
-- sessions and interactions only, no grant, account or provider session on a client-credentials
-- token): their indexes keep only the rows that have a value. Every lookup asks for a value
-- (`column = x`, `column in (...)`), which PostgreSQL knows is never null, so each still uses its
-- index.
--
-- A fifth of each new page is left free, so that marking a row used (consumed_at, in no index)
-- rewrites it on its own page without a new entry in each of the table's indexes (a HOT update).
-- It applies to the pages written from now on.
ALTER TABLE "oidc_models" SET (fillfactor = 80);
--> statement-breakpoint
DROP INDEX "oidc_models_grant_idx";
--> statement-breakpoint
CREATE INDEX "oidc_models_grant_idx" ON "oidc_models" USING btree ("grant_id") WHERE "grant_id" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "oidc_models_user_code_idx";
--> statement-breakpoint
CREATE INDEX "oidc_models_user_code_idx" ON "oidc_models" USING btree ("user_code") WHERE "user_code" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "oidc_models_uid_idx";
--> statement-breakpoint
CREATE INDEX "oidc_models_uid_idx" ON "oidc_models" USING btree ("uid") WHERE "uid" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "oidc_models_account_idx";
--> statement-breakpoint
CREATE INDEX "oidc_models_account_idx" ON "oidc_models" USING btree ("account_id","model") WHERE "account_id" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "oidc_models_session_uid_idx";
--> statement-breakpoint
CREATE INDEX "oidc_models_session_uid_idx" ON "oidc_models" USING btree ("session_uid") WHERE "session_uid" IS NOT NULL;
