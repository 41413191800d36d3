import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import type { WorkerAnswer, WorkerRequest, WorkerStart } from './pglite-protocol';

type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

/** What the server's thread calls: the part of PGlite's interface drizzle and openDatabase use. */
export interface RemotePGlite {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  readonly closed: boolean;
}

/** A PostgreSQL error as the worker described it, with its fields (code, constraint, ...) back on an Error. */
function errorFrom(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'database error'));
  Object.assign(error, fields);
  return error;
}

/**
 * The worker's entry. Run from TypeScript (tsx, tests), the worker is TypeScript too: a first
 * module registers tsx's loader in the worker, then imports it (an `--import tsx` in the worker's
 * execArgv is not applied to a worker's entry on every Node version).
 */
function workerEntry(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./pglite-worker.js', import.meta.url);
  const tsx = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const worker = new URL('./pglite-worker.ts', import.meta.url).href;
  return new URL(`data:text/javascript,${encodeURIComponent(`import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(worker)});`)}`);
}

/** The worker thread's name in /proc, where the bench reads its CPU. */
export const PGLITE_THREAD_NAME = 'pglite';

/**
 * PGlite in a worker thread (pglite-worker.ts), behind the interface drizzle calls. Queries and
 * transactions keep PGlite's semantics: one statement or one transaction at a time, the others
 * queued by PGlite itself in the worker; a notification reaches its listener before the answer
 * of the statement that sent it (one port delivers in order).
 */
export async function startPgliteWorker(start: WorkerStart): Promise<RemotePGlite> {
  const worker = new Worker(workerEntry(), { workerData: start, name: PGLITE_THREAD_NAME });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const channels = new Map<string, Set<(payload: string) => void>>();
  let nextId = 0;
  let closed = false;
  let failure: Error | undefined;

  const started = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));
  worker.on('message', (message: WorkerAnswer) => {
    if ('kind' in message) {
      for (const callback of channels.get(message.channel) ?? []) callback(message.payload);
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiting?.resolve(message.value);
    else waiting?.reject(errorFrom(message.error));
  });
  // A worker that ends unasked (out of memory, a crash in WebAssembly) fails what waits and all that follows.
  const fail = (error: Error) => {
    failure = error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the PGlite worker ended (exit code ${code})`)));

  const send = <T>(request: Request): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = ++nextId;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  };
  // drizzle passes its type parsers with every query; the worker's client has them set once (pglite-client.ts).
  const queryOn = (tx: number | undefined) => <T>(text: string, params: unknown[] = [], options?: QueryOptions) => send<Results<T>>({ kind: 'query', text, params, rowMode: options?.rowMode, tx });

  await started;
  return {
    query: queryOn(undefined),
    exec: (text) => send({ kind: 'exec', text }),
    async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
      const tx = await send<number>({ kind: 'begin' });
      let ended = false;
      const handle = {
        query: queryOn(tx),
        exec: (text: string) => send({ kind: 'exec', text, tx }),
        get closed() {
          return ended;
        },
      } as unknown as Transaction;
      let result: T;
      try {
        result = await callback(handle);
      } catch (error) {
        ended = true;
        await send({ kind: 'end', tx, commit: false });
        throw error;
      }
      ended = true;
      await send({ kind: 'end', tx, commit: true });
      return result;
    },
    async listen(channel, callback) {
      const callbacks = channels.get(channel) ?? new Set();
      channels.set(channel, callbacks);
      callbacks.add(callback);
      await send({ kind: 'listen', channel });
      return async () => {
        callbacks.delete(callback);
        if (callbacks.size === 0 && !closed) await send({ kind: 'unlisten', channel });
      };
    },
    async close() {
      if (closed) return;
      await send({ kind: 'close' });
      closed = true;
      await worker.terminate();
    },
    get closed() {
      return closed;
    },
  } satisfies RemotePGlite as RemotePGlite;
}
