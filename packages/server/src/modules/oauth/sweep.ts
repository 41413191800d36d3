import { and, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { oidcModels, oidcSessionLinks } from '../../db/schema';
import { installPeriodicJob } from '../../platform/jobs';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes what the provider no longer sees: expired models (codes, tokens, sessions,
 * interactions; the adapter already hides them) and links to provider sessions that are gone
 * with every token issued in them. A link stays while a token stands on its provider session:
 * tokens outlive that session (expiresWithSession is off), and the link is how ending the portal
 * session reaches them (service.ts).
 */
export async function sweepExpired(db: Database): Promise<{ models: number; links: number }> {
  const models = await db.delete(oidcModels).where(lt(oidcModels.expiresAt, sql`now()`)).returning({ id: oidcModels.id });
  const links = await db
    .delete(oidcSessionLinks)
    .where(
      and(
        lt(oidcSessionLinks.createdAt, sql`now() - interval '1 hour'`),
        // The provider session's own row and every token issued in it: a Session row carries its
        // uid as session_uid too (columnsOf), so one lookup on that column's index finds either.
        sql`not exists (select 1 from ${oidcModels} where ${oidcModels.sessionUid} = ${oidcSessionLinks.sessionUid})`,
      ),
    )
    .returning({ uid: oidcSessionLinks.sessionUid });
  return { models: models.length, links: links.length };
}

/** Every node sweeps hourly (the statements are idempotent, so nodes need not agree who). */
export function installOidcSweepJob(app: FastifyInstance, db: Database): void {
  installPeriodicJob(app, {
    name: 'oidc-sweep',
    intervalMs: SWEEP_INTERVAL_MS,
    initialDelayMs: 60_000 + Math.floor(Math.random() * 60_000),
    run: () => sweepExpired(db),
  });
}
