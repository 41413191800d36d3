-- Operators lock an account from the console: a locked person cannot sign in, and every
-- session, API key and token of theirs is refused until an operator unlocks it.
ALTER TABLE "users" ADD COLUMN "locked_at" timestamp with time zone;
--> statement-breakpoint
-- The console's people search: a prefix of the email, the username or the name (lower case),
-- each answered by one range scan of its own index in "C" order, which is the order of the
-- results and of the keyset paging (key, id). pg_trgm would find infixes too, but PGlite loads
-- it only when every place that creates a database passes the extension; a prefix is what an
-- operator types, and these scans stop after one page whatever the table's size.
CREATE INDEX "users_search_email_idx" ON "users" USING btree (("email" COLLATE "C"), "id");
--> statement-breakpoint
CREATE INDEX "users_search_username_idx" ON "users" USING btree ((lower("username") COLLATE "C"), "id") WHERE "username" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "users_search_name_idx" ON "users" USING btree ((lower("full_name") COLLATE "C"), "id");
