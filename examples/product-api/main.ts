import { createProductApi } from './api.ts';
import { accessTokenVerifier } from './verify.ts';

/**
 * Runs the example API: `PORTAL_URL=... API_RESOURCE=https://notes.example.com/ PORT=5186 node main.ts`
 * (Node 22.18+ runs TypeScript as is; on older Node, `npx tsx main.ts`).
 */
const portalUrl = process.env.PORTAL_URL;
const audience = process.env.API_RESOURCE;
if (!portalUrl || !audience) throw new Error('PORTAL_URL and API_RESOURCE are required');
const port = Number(process.env.PORT ?? 5186);

const api = createProductApi(await accessTokenVerifier({ portalUrl, audience }));
api.listen(port, '127.0.0.1', () => console.log(`notes API on http://127.0.0.1:${port}/notes`));
