import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import { buildApp, type AppDependencies } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { DatabaseHandle } from '../src/db/client';
import { createMailer, type Mailer } from '../src/platform/mail';
import { freshDatabase } from './db-target';

/** The key of secrets at rest in tests (never the generated file under ./data). */
export const TEST_DATA_KEY = '0f'.repeat(32);

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** A TCP port free right now on 127.0.0.1 (for a server whose public origin must be known before it starts). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  /** The app's mailer: `settled()` waits for the mail its requests send in the background. */
  mailer: Mailer;
  /** Base URL when started with `listen: true`. */
  url: string;
  close(): Promise<void>;
}

/**
 * A real app on a fresh migrated database (PGlite, or PostgreSQL when TEST_DB=postgres).
 * Pass `database` to start a second node on the same database.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    listen?: boolean;
    port?: number;
    database?: DatabaseHandle;
    clock?: AppDependencies['clock'];
    webDist?: string;
    /** The app logs here (at LOG_LEVEL, silent unless env sets it) instead of not at all. */
    logStream?: AppDependencies['logStream'];
  } = {},
): Promise<TestServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    // One key for every node of a test, as a deployment shares one.
    DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    // Every sign-up solves a captcha: at the production cost (~70 ms each, hundreds of them) that
    // was an eighth of the server suite's time. The captcha's own tests keep the default cost.
    ALTCHA_COST: '1',
    // Limits and sessions shared through Redis when the run has one (CI sets REDIS_URL).
    ...(process.env.REDIS_URL && !options.env?.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // Each test server counts in its own keyspace, so runs never see each other's counters.
    REDIS_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
    ...options.env,
  });
  const ownsDatabase = !options.database;
  const database = options.database ?? (await freshDatabase());
  // Made here, as app.ts would, so a test can wait for the mail its requests send after answering.
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, database });
  const app = await buildApp({ config, database, mailer, webDist: options.webDist ?? WEB_DIST, clock: options.clock, ...(options.logStream ? { logStream: options.logStream } : { logger: false }) });
  const close = async () => {
    await app.close();
    await mailer.close();
    if (ownsDatabase) await database.close();
  };
  let url = '';
  try {
    if (options.listen) {
      await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
      const address = app.server.address();
      url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    } else {
      await app.ready();
    }
  } catch (error) {
    // A server that failed to start leaves nothing running behind the test.
    await close().catch(() => undefined);
    throw error;
  }
  return { app, config, database, mailer, url, close };
}

/**
 * A listening server that is the OpenID provider of the products' back ends in `clientsFile`
 * (confidential ones with their `secrets`, by client id). Its issuer is the platform origin,
 * so it listens where it says it is: on a port chosen before it starts.
 */
export async function startProviderTestServer(options: {
  clientsFile: string;
  secrets: Record<string, string>;
  env?: Record<string, string>;
  clock?: AppDependencies['clock'];
}): Promise<TestServer> {
  const port = await freePort();
  const secrets = Object.entries(options.secrets).map(([clientId, secret]) => `${clientId}=${secret}`).join(',');
  return startTestServer({
    listen: true,
    port,
    clock: options.clock,
    env: { PORT: String(port), PLATFORM_ORIGIN: `http://127.0.0.1:${port}`, OAUTH_CLIENTS_FILE: options.clientsFile, OAUTH_CLIENT_SECRETS: secrets, ...options.env },
  });
}

/** openid-client configured for a confidential client of `server` (discovery over real HTTP). */
export function confidentialClient(server: TestServer, clientId: string, secret: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(server.url), clientId, {}, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });
}

/** A product back end's access token by the client-credentials grant, through openid-client as a real client. */
export async function clientCredentialsToken(server: TestServer, clientId: string, secret: string, scope?: string): Promise<string> {
  const tokens = await oidc.clientCredentialsGrant(await confidentialClient(server, clientId, secret), scope ? { scope } : {});
  return tokens.access_token;
}
