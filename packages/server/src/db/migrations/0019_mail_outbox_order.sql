-- The outbox lists newest first. PGlite's clock ticks in milliseconds, so two mails sent in one
-- millisecond tied on created_at and came back in random order; a sequence orders them as sent.
ALTER TABLE "mail_outbox" ADD COLUMN "seq" bigint GENERATED ALWAYS AS IDENTITY;
