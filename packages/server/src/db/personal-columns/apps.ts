import { no, deleteRow, clear, type PersonalColumns } from './handling';

/** Outside apps and products: the OpenID provider's rows, apps, webhooks and websites' moderators. */
export const appColumns: PersonalColumns = {
  // Deleted with the portal session (foreign key cascade).
  oidc_session_links: { session_uid: deleteRow, portal_session_id: deleteRow, created_at: deleteRow },
  // The provider's sessions, grants and tokens of the account (account_id).
  oidc_models: {
    model: no,
    id: no,
    payload: deleteRow,
    grant_id: no,
    user_code: no,
    uid: no,
    account_id: deleteRow,
    client_id: no,
    session_uid: no,
    expires_at: no,
    consumed_at: no,
  },
  oidc_keys: { kid: no, alg: no, sealed_jwk: no, created_at: no, activates_at: no, retired_at: no },
  oauth_clients: { client_id: no, secret_hash: no, metadata: no, created_at: no, updated_at: no, disabled_at: no },
  oauth_client_logos: { client_id: no, content: no, version: no, updated_at: no },
  website_moderators: {
    id: no,
    client_id: no,
    service_scope: no,
    website_id: no,
    website_name: no,
    email: deleteRow,
    language: no,
    token_hash: deleteRow,
    user_id: deleteRow,
    expires_at: no,
    accepted_at: no,
    revoked_at: no,
    signup_claimed_at: no,
    created_at: no,
  },
  // Endpoints are an app's settings; a delivery's payload names the person until the purge's
  // trigger (migration 0031_webhooks) cuts it to their id, before queueing user.deleted.
  webhook_endpoints: { client_id: no, url: no, events: no, secret: no, enabled: no, created_at: no, updated_at: no },
  webhook_deliveries: {
    id: no,
    event_id: no,
    client_id: no,
    type: no,
    subject: no,
    payload: clear,
    status: no,
    attempts: no,
    last_status_code: no,
    last_error: no,
    next_attempt_at: no,
    lease_until: no,
    delivered_at: no,
    created_at: no,
  },
  // The apps to tell of the account's deletion: the trigger that queues user.deleted deletes them.
  webhook_deletion_audiences: { account_id: deleteRow, client_id: no, granted_at: no },
};
