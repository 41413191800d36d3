import { columnsOf, type ModelWrite } from '../src/modules/oauth/model-rows';

/** One client-credentials token as the adapter's upsert statements take it (adapter.ts: its columns by columnsOf). */
export const clientCredentialsRow = (id: string, scope = 'moderators'): ModelWrite => {
  const payload = { jti: id, kind: 'ClientCredentials', clientId: 'test-product', scope };
  return {
    ...columnsOf('ClientCredentials', id, payload),
    model: 'ClientCredentials',
    payload: JSON.stringify(payload),
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
  };
};
