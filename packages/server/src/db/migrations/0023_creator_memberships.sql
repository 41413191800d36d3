-- Rights come from membership rows only: the creator columns (admin_email, admin_user_id) no
-- longer give any. Organizations made before roles may have no row for their creator: each gets
-- one, as owner when the organization has no owner, else as admin (what the columns gave).
-- A creator the audit log saw removed or leave stays out, and so does an email in an organization.
INSERT INTO "organization_members" ("organization_id", "email", "user_id", "role", "created_at")
SELECT o."id", lower(o."admin_email"), o."admin_user_id",
  CASE WHEN EXISTS (SELECT 1 FROM "organization_members" owners WHERE owners."organization_id" = o."id" AND owners."role" = 'owner') THEN 'admin' ELSE 'owner' END,
  o."created_at"
FROM "organizations" o
WHERE NOT EXISTS (
    SELECT 1 FROM "organization_members" m
    WHERE m."email" = lower(o."admin_email") OR (o."admin_user_id" IS NOT NULL AND m."user_id" = o."admin_user_id")
  )
  AND NOT EXISTS (
    SELECT 1 FROM "organization_audit_events" e
    WHERE e."organization_id" = o."id" AND e."action" IN ('member_removed', 'member_left') AND lower(e."target_email") = lower(o."admin_email")
  )
ORDER BY o."created_at", o."id"
ON CONFLICT DO NOTHING;
