import { createWebApp } from './app.ts';

/**
 * Runs the example web app: `PORTAL_URL=... CLIENT_ID=... CLIENT_SECRET=... node main.ts`
 * (Node 22.18+ runs TypeScript as is; on older Node, `npx tsx main.ts`).
 */
const env = (name: string, fallback?: string) => {
  const value = process.env[name] ?? fallback;
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const appUrl = new URL(env('APP_URL', 'http://127.0.0.1:5185'));
const api = process.env.API_URL ? { url: process.env.API_URL, resource: env('API_RESOURCE'), scope: env('API_SCOPE', 'notes:read') } : undefined;
const server = await createWebApp({ portalUrl: env('PORTAL_URL'), clientId: env('CLIENT_ID'), clientSecret: env('CLIENT_SECRET'), appUrl: appUrl.href, api });
server.listen(Number(appUrl.port || 80), appUrl.hostname, () => console.log(`example app on ${appUrl.href}`));
