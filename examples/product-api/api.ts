import { createServer, type Server } from 'node:http';
import { TokenRefused, type Verifier } from './verify.ts';

/**
 * A product's API: each person's notes, read with the `notes:read` scope and added with
 * `notes:write`. Who the caller is comes from the verified token only (its `sub`), never from
 * the request, so nobody reads another person's notes by changing an id.
 */
export function createProductApi(verify: Verifier): Server {
  const notes = new Map<string, string[]>();
  return createServer(async (request, response) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
    const url = new URL(request.url ?? '/', 'http://api.invalid');
    if (url.pathname !== '/notes' || (request.method !== 'GET' && request.method !== 'POST')) return json(404, { error: 'not_found' });
    const scope = request.method === 'GET' ? 'notes:read' : 'notes:write';
    try {
      const caller = await verify(request.headers.authorization, scope);
      const own = notes.get(caller.sub) ?? [];
      if (request.method === 'POST') {
        let text = '';
        for await (const chunk of request) text += chunk;
        own.push(text.slice(0, 1000));
        notes.set(caller.sub, own);
      }
      return json(200, { sub: caller.sub, client_id: caller.clientId, notes: own });
    } catch (error) {
      if (!(error instanceof TokenRefused)) throw error;
      // RFC 6750: the challenge tells the app whether to sign in again or ask for more scope.
      const challenge = `Bearer error="${error.error}"${error.error === 'insufficient_scope' ? `, scope="${scope}"` : ''}`;
      return json(error.status, { error: error.error, message: error.message }, { 'www-authenticate': challenge });
    }
  });
}
