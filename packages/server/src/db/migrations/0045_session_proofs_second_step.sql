-- When a session last proved the second step again (a code, a recovery code or a passkey at
-- POST /sso/me/reauth), beside when it last proved anything (the password too). Adding a passkey
-- to an account with two-step verification asks for the second step: a passkey signs in as both
-- factors, so a session and the password alone must not be able to add one. Existing proofs
-- are not known to have been of the second step: null, the safe side (the person proves again).
ALTER TABLE "session_proofs" ADD COLUMN "second_step_at" timestamp with time zone;
