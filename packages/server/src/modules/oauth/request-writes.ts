import type { HotStatements } from './adapter-statements';
import { rowsDocument, type ModelWrite } from './model-rows';

/**
 * A provider request's writes, held until the request ends (or reads) and then made in one
 * statement: a refresh grant marks its token used and saves the rotated refresh token and its
 * access token in one round trip instead of three, a code grant likewise with its code. The
 * response leaves only after that (provider.ts flushes before Koa answers), so a client never
 * holds a token that is not stored, nor one whose code or refresh token was used meanwhile:
 * the new rows are saved only if the old one was still unused, and otherwise the request is
 * refused (`refused`: provider.ts answers invalid_grant). A read in the same request writes
 * first, so it sees its own writes. An authorization's link of its provider session to the
 * portal session goes in the same statement (`linkSession`). Outside a provider request (the portal's own routes) a
 * write or a consume goes at once.
 */
/** A provider session and the portal session it stands on (service.ts ends the one with the other). */
export interface SessionLink {
  sessionUid: string;
  portalSessionId: string;
}

export function requestWrites(statements: HotStatements, currentRequest: () => object | undefined, refused: (model: string, id: string) => Promise<never>) {
  type Consume = { model: string; id: string };
  /**
   * `removals`: interactions the request ended (resume), deleted with its writes; `removalsFirst`
   * when a row removed was then saved again, so that the delete goes before the save.
   */
  type Held = { rows: Map<string, ModelWrite>; consumes: Consume[]; link?: SessionLink; removals: Consume[]; removalsFirst: boolean };
  const held = new WeakMap<object, Held>();
  const keyOf = (row: { model: string; id: string }) => `${row.model}:${row.id}`;
  const removalColumns = (removals: Consume[]) => ({ removeModel: removals.map((row) => row.model), removeId: removals.map((row) => row.id) });

  async function consumeNow({ model, id }: Consume): Promise<void> {
    if ((await statements.consume.execute({ model, id })).length === 0) await refused(model, id);
  }

  async function write({ rows: byKey, consumes, link, removals, removalsFirst }: Held): Promise<void> {
    const rows = [...byKey.values()];
    const linkParameters = link && { linkSessionUid: link.sessionUid, linkPortalSessionId: link.portalSessionId };
    // An authorization's writes, its session's link and the end of its interaction: one statement.
    if (linkParameters && consumes.length === 0 && rows.length > 0 && !removalsFirst) {
      await statements.upsertLinked.execute({ rows: rowsDocument(rows), ...linkParameters, ...removalColumns(removals) });
      return;
    }
    if (removalsFirst) await statements.remove.execute(removalColumns(removals));
    await writeRows(rows, consumes);
    if (linkParameters) await statements.link.execute(linkParameters);
    if (!removalsFirst && removals.length > 0) await statements.remove.execute(removalColumns(removals));
  }

  async function writeRows(rows: ModelWrite[], consumes: Consume[]): Promise<void> {
    // Interactions alone (an authorization that sends the person to sign in, the sign-in's answer): see upsertInteractions.
    if (consumes.length === 0 && rows.length > 0 && rows.every((row) => row.model === 'Interaction')) {
      await statements.upsertInteractions.execute({ rows: rowsDocument(rows) });
      return;
    }
    const saves = (consume: Consume) => rows.some((row) => row.model === consume.model && row.id === consume.id);
    const [only] = consumes;
    // One consume and rows that do not include it (a grant's rotation): one statement.
    if (only && consumes.length === 1 && rows.length > 0 && !saves(only)) {
      const saved = await statements.consumeAndUpsert.execute({ rows: rowsDocument(rows), consumedModel: only.model, consumedId: only.id });
      if (saved.length === 0) await refused(only.model, only.id);
      return;
    }
    // Anything else in turn: a row saved and used in the same request is saved first.
    const rowsFirst = consumes.some(saves);
    if (rowsFirst && rows.length > 0) await statements.upsert.execute(rows);
    for (const consume of consumes) await consumeNow(consume);
    if (!rowsFirst && rows.length > 0) await statements.upsert.execute(rows);
  }

  const heldBy = (request: object) => {
    let writes = held.get(request);
    if (!writes) held.set(request, (writes = { rows: new Map(), consumes: [], removals: [], removalsFirst: false }));
    return writes;
  };

  return {
    async add(row: ModelWrite): Promise<void> {
      const request = currentRequest();
      if (!request) return writeRows([row], []);
      // A second save of the same row replaces the first, as two upserts one after the other would.
      const writes = heldBy(request);
      if (writes.removals.some((removal) => keyOf(removal) === keyOf(row))) writes.removalsFirst = true;
      writes.rows.set(keyOf(row), row);
    },
    /** Links the provider session of `request` to its portal session, with the request's writes. */
    linkSession(request: object, link: SessionLink): void {
      heldBy(request).link = link;
    },
    async consume(consume: Consume): Promise<void> {
      const request = currentRequest();
      if (!request) return consumeNow(consume);
      heldBy(request).consumes.push(consume);
    },
    /**
     * Deletes an interaction with the request's writes (the provider ends it when the person
     * comes back from it). Only interactions: nothing consumes them, so no consume of the same
     * request can depend on the order; a save of it earlier in the request is not made.
     */
    async removeInteraction(id: string): Promise<void> {
      const removal = { model: 'Interaction', id };
      const request = currentRequest();
      if (!request) return void (await statements.remove.execute(removalColumns([removal])));
      const writes = heldBy(request);
      writes.rows.delete(keyOf(removal));
      writes.removals.push(removal);
    },
    /** Makes what the current request holds if any of it is of `models` (a read of them only needs those first). */
    async flushTouching(...models: string[]): Promise<void> {
      const request = currentRequest();
      const writes = request && held.get(request);
      if (!writes) return;
      const ofModel = (row: { model: string }) => models.includes(row.model);
      if ([...writes.rows.values()].some(ofModel) || writes.consumes.some(ofModel) || writes.removals.some(ofModel)) await this.flush(request);
    },
    /** Makes what `request` holds (by default the provider request this runs in). */
    async flush(request = currentRequest()): Promise<void> {
      const writes = request && held.get(request);
      if (!writes) return;
      held.delete(request);
      await write(writes);
    },
  };
}
