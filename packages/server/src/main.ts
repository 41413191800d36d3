import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirLocked, openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedDemoAccount } from './modules/users';
import { systemClock } from './platform/clock';
import { DataKeyMismatch } from './platform/data-protection';
import { stdoutLog } from './platform/logger';
import { applyLimitOverrides } from './platform/rate-limit/rules';

/** Process entry: config -> database -> app -> listen, and a clean shutdown on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  applyLimitOverrides(config.RATE_LIMITS);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, listen: { keepaliveMs: config.LISTEN_KEEPALIVE_MS } });
  await migrate(database);
  const webDist = config.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
  const app = await buildApp({ config, database, webDist, logStream: stdoutLog() });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await app.close();
      await database.close();
      app.log.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (config.SEED_DEMO) {
    const demo = await seedDemoAccount(database.db, systemClock);
    // Printed once, on the start that creates it; the password is not stored anywhere readable.
    if (demo) app.log.info(`demo account created: ${demo.email} / ${demo.password} (shown only this once)`);
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`portal on ${config.PLATFORM_ORIGIN} (platform) and ${config.LOCKER_ORIGIN} (locker); database: ${database.kind}`);
}

main().catch((error: unknown) => {
  // A cause the operator can fix is said in plain words, not as a stack trace from deep inside the start.
  if (error instanceof ConfigError || error instanceof DataKeyMismatch || error instanceof DataDirLocked) {
    console.error(error instanceof ConfigError ? error.message : `cannot start: ${error.message}`);
    process.exit(1);
  }
  throw error;
});
