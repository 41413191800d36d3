/**
 * The worker thread that owns a PGlite instance (pglite-remote.ts starts it). PGlite runs
 * PostgreSQL compiled to WebAssembly on the thread that calls it; here that is this thread, so
 * on a machine with two cores the database works beside the server's HTTP thread instead of
 * taking turns with it. Every message names an `id` that its answer repeats; a transaction is
 * held open here, on PGlite's own transaction lock, between `begin` and `end`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzleClient } from './pglite-client';
import type { WorkerAnswer, WorkerRequest, WorkerStart } from './pglite-protocol';

const port = parentPort!;
const { dataDir } = workerData as WorkerStart;

/** The fields of a PostgreSQL error that callers read (code, constraint, ...), as plain data. */
function plainError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return fields;
}

const answer = (message: WorkerAnswer) => port.postMessage(message);

async function serve(): Promise<void> {
  let client: PGlite;
  try {
    client = drizzleClient(await PGlite.create(dataDir));
  } catch (error) {
    answer({ id: 0, ok: false, error: plainError(error) });
    return;
  }
  /** Open transactions by id, each with what ends it. */
  const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void; settled: Promise<unknown> }>();
  const listeners = new Map<string, () => Promise<void>>();
  let nextTransaction = 0;
  const target = (tx: number | undefined) => (tx === undefined ? client : transactions.get(tx)?.tx);

  async function handle(request: WorkerRequest): Promise<unknown> {
    switch (request.kind) {
      case 'query': {
        const on = target(request.tx);
        if (!on) throw new Error('the transaction has ended');
        return on.query(request.text, request.params, { rowMode: request.rowMode });
      }
      case 'exec': {
        const on = target(request.tx);
        if (!on) throw new Error('the transaction has ended');
        return on.exec(request.text);
      }
      case 'begin': {
        const id = ++nextTransaction;
        return new Promise<number>((opened, failed) => {
          const settled = client.transaction(
            (tx) =>
              new Promise<void>((commit, rollback) => {
                transactions.set(id, { tx, end: (ok) => (ok ? commit() : rollback(new Error('rolled back'))), settled });
                opened(id);
              }),
          );
          settled.catch(failed).finally(() => transactions.delete(id));
        });
      }
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error('the transaction has ended');
        open.end(request.commit);
        // A rollback asked for is no error; a commit that fails is.
        await open.settled.catch((error: unknown) => {
          if (request.commit) throw error;
        });
        return undefined;
      }
      case 'listen': {
        if (!listeners.has(request.channel)) listeners.set(request.channel, await client.listen(request.channel, (payload) => answer({ kind: 'notify', channel: request.channel, payload })));
        return undefined;
      }
      case 'unlisten': {
        const unlisten = listeners.get(request.channel);
        listeners.delete(request.channel);
        if (unlisten && !client.closed) await unlisten();
        return undefined;
      }
      case 'close':
        if (!client.closed) await client.close();
        return undefined;
    }
  }

  port.on('message', (request: WorkerRequest) => {
    handle(request).then(
      (value) => answer({ id: request.id, ok: true, value }),
      (error: unknown) => answer({ id: request.id, ok: false, error: plainError(error) }),
    );
  });
  answer({ id: 0, ok: true, value: undefined });
}

void serve();
