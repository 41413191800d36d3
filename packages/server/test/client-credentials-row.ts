import type { ModelWrite } from '../src/modules/oauth/model-rows';

/** One client-credentials token as the adapter's upsert statements take it (adapter-statements.ts). */
export const clientCredentialsRow = (id: string, scope = 'moderators'): ModelWrite => ({
  model: 'ClientCredentials',
  id,
  payload: JSON.stringify({ jti: id, kind: 'ClientCredentials', clientId: 'test-product', scope }),
  grantId: null,
  userCode: null,
  uid: null,
  accountId: null,
  clientId: 'test-product',
  sessionUid: null,
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
});
