-- A security alert is mailed to the address the account had when the sign-in it reports was
-- made. Read at delivery instead, an alert waiting for its retry followed an email change made
-- meanwhile: a thief who signed in with a stolen password and then changed the address got the
-- owner's new-device alert, and the owner never did. Null (alerts queued before this column):
-- the account's address at delivery.
ALTER TABLE "security_alerts" ADD COLUMN "mail_to" text;
