-- Every sign-in asks which organization an account is a member of, by the rows that name the
-- account's id as well as by its email (a row follows its account whatever address it was left
-- under): without an index on user_id that question reads the whole table. Rows of invited
-- people who have no account yet are left out; a lookup by id never needs them.
CREATE INDEX "organization_members_user_idx" ON "organization_members" USING btree ("user_id") WHERE "user_id" IS NOT NULL;
