/** Rows as parallel arrays, one per column (the upsert statements' parameters: adapter-statements.ts). */
type Columns = Record<string, unknown[]> & { model: unknown[]; id: unknown[] };

interface Batch<P extends Columns> {
  parts: P[];
  settles: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

/**
 * An upsert statement that sends the rows of concurrent requests together: while one statement
 * is on its way, the rows of the requests that end meanwhile wait for it and then go as one
 * multi-row statement (a client-credentials grant under load: one round trip, one commit and
 * one parse of the answer for several tokens). An idle node sends at once, as before. Each
 * caller's promise settles with the statement that stored its rows, so every token is still
 * committed before its answer leaves. A batch the database refuses is sent again one request at
 * a time, in order (an upsert may be repeated): a row refused (a value the column cannot take)
 * fails its own request only, never the others' that happened to end beside it. Two requests
 * saving the same row in one batch: the later one's is saved (PostgreSQL refuses to update a
 * row twice in one statement), as if they had come one after the other.
 */
export function groupedUpserts<P extends Columns>(statement: { execute(parameters: P): Promise<unknown> }) {
  let busy = false;
  let waiting: Batch<P> | undefined;

  async function send(batch: Batch<P>): Promise<void> {
    busy = true;
    try {
      await statement.execute(merged(batch.parts));
      for (const settle of batch.settles) settle.resolve();
    } catch (error) {
      if (batch.parts.length === 1) batch.settles[0]!.reject(error);
      else await sendOneByOne(batch);
    }
    const next = waiting;
    waiting = undefined;
    if (next) void send(next);
    else busy = false;
  }

  async function sendOneByOne(batch: Batch<P>): Promise<void> {
    for (const [index, part] of batch.parts.entries()) {
      try {
        await statement.execute(part);
        batch.settles[index]!.resolve();
      } catch (error) {
        batch.settles[index]!.reject(error);
      }
    }
  }

  return {
    execute(parameters: P): Promise<void> {
      return new Promise((resolve, reject) => {
        if (!busy) return void send({ parts: [parameters], settles: [{ resolve, reject }] });
        waiting ??= { parts: [], settles: [] };
        waiting.parts.push(parameters);
        waiting.settles.push({ resolve, reject });
      });
    },
  };
}

/** The parts' rows in one set of columns, each (model, id) once: its last save. */
function merged<P extends Columns>(parts: P[]): P {
  if (parts.length === 1) return parts[0]!;
  const columns = Object.keys(parts[0]!);
  const last = new Map<string, { part: P; row: number }>();
  for (const part of parts) for (let row = 0; row < part.id.length; row++) last.set(`${String(part.model[row])}\u0000${String(part.id[row])}`, { part, row });
  const out = Object.fromEntries(columns.map((column) => [column, [] as unknown[]])) as Columns;
  for (const { part, row } of last.values()) for (const column of columns) out[column]!.push(part[column]![row]);
  return out as P;
}
