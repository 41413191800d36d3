/** The messages between the server's thread and the PGlite worker (pglite-worker.ts). */
export interface WorkerStart {
  /** PGlite's data folder; none: in memory. */
  dataDir?: string;
}

export type WorkerRequest = { id: number } & (
  | { kind: 'query'; text: string; params: unknown[]; rowMode: 'array' | 'object' | undefined; tx?: number }
  | { kind: 'exec'; text: string; tx?: number }
  | { kind: 'begin' }
  | { kind: 'end'; tx: number; commit: boolean }
  | { kind: 'listen'; channel: string }
  | { kind: 'unlisten'; channel: string }
  | { kind: 'close' }
);

/** An answer to request `id` (0: the worker's start), or a notification on a channel listened to. */
export type WorkerAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> } | { kind: 'notify'; channel: string; payload: string };
