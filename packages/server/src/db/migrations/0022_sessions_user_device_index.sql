-- Every sign-in asks whether the person had sessions before and whether this device was among
-- them (the session insert's RETURNING). Sessions stay for that device history, so by user alone
-- the second question read every session the person ever had: 14 ms for 38,000 of them, growing
-- with each sign-in. By user and device it is one index probe (0.09 ms). The new index serves
-- every lookup by user as well, so it replaces the old one (made first: never a moment without).
CREATE INDEX "sessions_user_device_idx" ON "sessions" USING btree ("user_id","device_id");
--> statement-breakpoint
DROP INDEX "sessions_user_idx";
