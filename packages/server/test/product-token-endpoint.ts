import type { TestServer } from './harness';
import { PRODUCT_SECRET } from './relying-party';

const PRODUCT = `Basic ${Buffer.from(`test-product:${PRODUCT_SECRET}`).toString('base64')}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A form the product's back end (test-product, with its secret) posts to `node`'s provider. */
export const productPost = (node: TestServer, url: string, values: Record<string, string>) =>
  node.app.inject({ method: 'POST', url, headers: { ...FORM, authorization: PRODUCT }, payload: new URLSearchParams(values).toString() });

/** The product's refresh grant with `token` on `node`: its status, and the tokens of a 200. */
export async function productRefresh(node: TestServer, token: string): Promise<{ status: number; error?: string; access_token?: string; refresh_token?: string }> {
  const response = await productPost(node, '/oidc/token', { grant_type: 'refresh_token', refresh_token: token });
  return { status: response.statusCode, ...response.json<{ error?: string; access_token?: string; refresh_token?: string }>() };
}

/** Whether `node`'s introspection answers `token` active to the product. */
export const activeForProduct = async (node: TestServer, token: string) =>
  (await productPost(node, '/oidc/token/introspection', { token })).json<{ active: boolean }>().active;
