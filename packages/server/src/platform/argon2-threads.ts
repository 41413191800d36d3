import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

type Job = { op: 'hash'; password: string; options: object } | { op: 'verify'; hash: string; password: string };
type Reply = { id: number; value: string | boolean } | { id: number; error: string };

interface Waiting {
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

// A thread's whole program, plain CommonJS: it needs neither tsx nor a build step. Jobs wait
// in the thread's own message queue, so it starts the next one the moment it finishes one.
const THREAD_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const { hashSync, verifySync } = require(workerData.argon2);
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'verify' ? verifySync(job.hash, job.password) : hashSync(job.password, job.options);
    parentPort.postMessage({ id: job.id, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});`;

/** The threads' name in /proc, where the bench reads their CPU. */
export const ARGON2_THREAD_NAME = 'argon2';

/**
 * argon2 on threads of its own, one per core. Through libuv's pool (what @node-rs/argon2's
 * async calls use) a core stood idle after each hash until the main thread, busy with other
 * requests, handed it the next one; and each hash held a pool thread that file reads and DNS
 * need. Here a thread takes its next job itself. More threads than cores would only fight
 * over caches: 19 MiB per hash, ~12% more CPU each at two per core.
 */
export function createArgon2Threads(count = availableParallelism()) {
  const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
  const threads: Thread[] = [];
  let nextId = 0;

  function start(): Thread {
    const worker = new Worker(THREAD_PROGRAM, { eval: true, workerData: { argon2 }, execArgv: [], name: ARGON2_THREAD_NAME });
    const thread: Thread = { worker, waiting: new Map() };
    worker.on('message', (reply: Reply) => {
      const waiting = thread.waiting.get(reply.id);
      thread.waiting.delete(reply.id);
      if (thread.waiting.size === 0) worker.unref();
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.value);
    });
    // A thread that died (out of memory, a crash in the addon) fails its jobs and is replaced at the next one.
    const fail = (error: Error) => {
      const index = threads.indexOf(thread);
      if (index >= 0) threads.splice(index, 1);
      for (const waiting of thread.waiting.values()) waiting.reject(error);
      thread.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`argon2 thread stopped (${code})`)));
    // An idle thread never keeps the process alive; one with work does, like any pending I/O.
    // After the listeners: adding a 'message' listener refs the thread again.
    worker.unref();
    return thread;
  }

  /** The thread with the fewest jobs waiting; a new one while there are fewer than `count`. */
  function leastBusy(): Thread {
    const idle = threads.find((thread) => thread.waiting.size === 0);
    if (idle) return idle;
    if (threads.length < count) {
      const thread = start();
      threads.push(thread);
      return thread;
    }
    return threads.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
  }

  function run<T extends string | boolean>(job: Job): Promise<T> {
    const thread = leastBusy();
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      thread.waiting.set(id, { resolve: resolve as (value: string | boolean) => void, reject });
      if (thread.waiting.size === 1) thread.worker.ref();
      thread.worker.postMessage({ ...job, id });
    });
  }

  return {
    hash: (password: string, options: object) => run<string>({ op: 'hash', password, options }),
    verify: (hash: string, password: string) => run<boolean>({ op: 'verify', hash, password }),
    /**
     * Ends every thread now, the way a crash would: their jobs in flight reject, and the next
     * job starts a new thread.
     */
    async terminate(): Promise<void> {
      await Promise.all([...threads].map((thread) => thread.worker.terminate()));
    },
  };
}
