import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import { freePort } from '../../e2e/support/server';
import { ensureWebBuilt, WEB_DIST } from '../../scripts/web-build.mjs';
import type { Config } from '../../packages/server/src/config';
import type { DatabaseHandle } from '../../packages/server/src/db/client';

export interface RunningApp {
  app: FastifyInstance;
  url: string;
  port: number;
  /** The real app's NODE_ENV (production unless its config refused the bench's settings). */
  nodeEnv?: string;
  /** The real app's database, for sections that seed accounts. */
  database?: DatabaseHandle;
}

async function listen(app: FastifyInstance): Promise<RunningApp> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, port, url: `http://127.0.0.1:${port}` };
}

// The server is imported when a section first needs it, so a section that does not (and the
// table) still runs while the server does not load.
const server = async () => ({
  ...(await import('../../packages/server/src/app')),
  ...(await import('../../packages/server/src/config')),
  ...(await import('../../packages/server/src/db/client')),
  ...(await import('../../packages/server/src/db/migrate')),
});

async function benchConfig(port: number): Promise<Config> {
  const { ConfigError, loadConfig } = await server();
  const base = {
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    // The renewal section runs the job itself; the app's own run would renew the same rows beside it.
    BILLING_JOB_INTERVAL_SECONDS: '0',
    PORT: String(port),
    PLATFORM_ORIGIN: `http://localhost:${port}`,
    LOCKER_ORIGIN: `http://locker.localhost:${port}`,
    ALTCHA_HMAC_KEY: randomBytes(24).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  try {
    return loadConfig({ ...base, NODE_ENV: 'production' });
  } catch (error) {
    // Production may come to require settings a bench cannot give; development is close enough.
    if (!(error instanceof ConfigError)) throw error;
    return loadConfig({ ...base, NODE_ENV: 'development' });
  }
}

/**
 * What sections share, started on first use and closed at the end of the run:
 * the real app (buildApp on an in-memory PGlite, listening on 127.0.0.1), a bare Fastify
 * hello-world, and Chromium.
 */
export class BenchContext {
  private cleanups: Array<() => Promise<void>> = [];
  private real?: Promise<RunningApp>;
  private realOnPostgres?: Promise<RunningApp | undefined>;
  private webDist?: Promise<string>;
  private browserPromise?: Promise<Browser>;

  /** The real server app on the embedded database (PGlite in this process), as `npm start` runs it. */
  realApp(): Promise<RunningApp> {
    this.real ??= (async () => {
      const { openDatabase } = await server();
      return this.startReal(await openDatabase({ pglite: await PGlite.create() }));
    })();
    return this.real;
  }

  /**
   * The real server app on PostgreSQL, as production runs it: a database of its own on the
   * server at BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local one), dropped at the
   * end. Undefined when no PostgreSQL answers.
   */
  realAppOnPostgres(): Promise<RunningApp | undefined> {
    this.realOnPostgres ??= (async () => {
      const url = await this.postgresDatabase();
      if (!url) return undefined;
      const { openDatabase } = await server();
      return this.startReal(await openDatabase({ url }));
    })();
    return this.realOnPostgres;
  }

  /**
   * A new, empty PostgreSQL database on the server at BENCH_DATABASE_URL (else
   * TEST_DATABASE_URL, else the local one), dropped at the end of the run; its URL, or
   * undefined when no PostgreSQL answers.
   */
  async postgresDatabase(): Promise<string | undefined> {
    const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch {
      return undefined;
    }
    const name = `portal_bench_${randomBytes(6).toString('hex')}`;
    await admin.query(`create database ${name}`);
    await admin.end();
    this.cleanups.push(async () => {
      const drop = new pg.Client({ connectionString: base });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    });
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url.toString();
  }

  /** Migrates `database`, builds the app on it and listens on a free port of 127.0.0.1. */
  private async startReal(database: DatabaseHandle): Promise<RunningApp> {
    const { buildApp, migrate } = await server();
    await migrate(database);
    // The configured origins carry the port, so it is chosen before the app is built.
    const port = await freePort();
    const config = await benchConfig(port);
    const app = await buildApp({ config, database, webDist: await this.builtWeb(), logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    this.cleanups.push(async () => {
      await app.close();
      await database.close();
    });
    return { app, port, url: `http://127.0.0.1:${port}`, nodeEnv: config.NODE_ENV, database };
  }

  /** The web app, built first when stale (pages need it), in a private copy. */
  private builtWeb(): Promise<string> {
    this.webDist ??= (async () => {
      try {
        ensureWebBuilt({ log: (message) => console.log(`  ${message}`) });
      } catch (error) {
        console.log(`  (web build failed: ${(error as Error).message}; pages will answer 503)`);
      }
      // A private copy of the build, so a `vite build` elsewhere in the tree cannot empty it mid-run.
      const webDist = await mkdtemp(path.join(tmpdir(), 'portal-bench-web-'));
      await cp(WEB_DIST, webDist, { recursive: true }).catch(() => undefined);
      this.cleanups.push(() => rm(webDist, { recursive: true, force: true }));
      return webDist;
    })();
    return this.webDist;
  }

  /** A bare Fastify app answering GET /healthz like the real one, for comparison. */
  async helloWorld(): Promise<RunningApp> {
    const app = Fastify({ logger: false });
    app.get('/healthz', async () => ({ status: 'ok' }));
    const running = await listen(app);
    this.cleanups.push(() => app.close());
    return running;
  }

  browser(): Promise<Browser> {
    this.browserPromise ??= chromium.launch(chromiumLaunchOptions()).then((browser) => {
      this.cleanups.push(() => browser.close());
      return browser;
    });
    return this.browserPromise;
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`cleanup failed: ${(error as Error).message}`);
      }
    }
    this.cleanups = [];
  }
}
