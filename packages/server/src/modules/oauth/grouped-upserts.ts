import { rowsDocument, type ModelWrite } from './model-rows';

interface Batch {
  parts: ModelWrite[][];
  settles: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

/**
 * An upsert statement that sends the rows of concurrent requests together: the rows of the
 * requests that end in the same turn of the event loop, or while a statement is on its way, go
 * as one multi-row statement (client-credentials grants under load: one round trip, one commit
 * and one parse of the answer for several tokens). The first row of an idle moment waits only
 * for the end of the turn (setImmediate): on PGlite a statement's fixed cost (~0.25 ms of its
 * worker's CPU, as much as a `select 1`) was most of a grant's database work, and sent at once
 * it went alone while the requests read in the same turn waited for the next statement (3.7
 * rows per statement under load; 6.7 with the wait). Each caller's promise settles with the
 * statement that stored its rows, so every token is still committed before its answer leaves.
 * A batch the database refuses is sent again one request at a time, in order (an upsert may be
 * repeated): a row refused (a value the column cannot take) fails its own request only, never
 * the others' that happened to end beside it. Two requests saving the same row in one batch:
 * the later one's is saved (PostgreSQL refuses to update a row twice in one statement), as if
 * they had come one after the other.
 */
export function groupedUpserts(statement: { execute(parameters: { rows: string }): Promise<unknown> }) {
  let busy = false;
  let waiting: Batch | undefined;

  async function send(batch: Batch): Promise<void> {
    busy = true;
    try {
      await statement.execute({ rows: rowsDocument(merged(batch.parts)) });
      for (const settle of batch.settles) settle.resolve();
    } catch (error) {
      if (batch.parts.length === 1) batch.settles[0]!.reject(error);
      else await sendOneByOne(batch);
    }
    sendWaiting();
  }

  /** Sends what waits, or ends the busy spell when nothing does. */
  function sendWaiting(): void {
    const next = waiting;
    waiting = undefined;
    if (next) void send(next);
    else busy = false;
  }

  async function sendOneByOne(batch: Batch): Promise<void> {
    for (const [index, part] of batch.parts.entries()) {
      try {
        await statement.execute({ rows: rowsDocument(part) });
        batch.settles[index]!.resolve();
      } catch (error) {
        batch.settles[index]!.reject(error);
      }
    }
  }

  return {
    execute(rows: ModelWrite[]): Promise<void> {
      return new Promise((resolve, reject) => {
        if (!busy) {
          // The first of an idle moment waits for the end of this turn of the event loop: the
          // requests whose answers Node reads in the same turn (a burst under load) join it.
          busy = true;
          setImmediate(sendWaiting);
        }
        waiting ??= { parts: [], settles: [] };
        waiting.parts.push(rows);
        waiting.settles.push({ resolve, reject });
      });
    },
  };
}

/** The parts' rows, each (model, id) once: its last save. */
function merged(parts: ModelWrite[][]): ModelWrite[] {
  if (parts.length === 1) return parts[0]!;
  const last = new Map<string, ModelWrite>();
  for (const part of parts) for (const row of part) last.set(`${row.model}\u0000${row.id}`, row);
  return [...last.values()];
}
