import { HANDOFF_MS } from './token-reads';

/** A person's latest live grant for an app (none: `grant` undefined), as read at `at`. */
export interface RememberedGrant {
  accountId: string;
  clientId: string;
  grant?: { id: string; payload: Record<string, unknown> };
  at: number;
}

/**
 * The remembered grant a resume reads with its interaction (adapter-statements.ts,
 * findInteraction), taken by the same request's rememberedGrant a moment later
 * (existing-grant.ts) instead of a statement of its own. Not a cache: one entry per provider
 * request, used once, only for the same person and app, and no older than the grant handoff
 * (token-reads.ts), so it is as fresh as the read it replaces. A grant the request saves or
 * deletes in between drops it (`forget`): the read then goes to the database.
 */
export function rememberedReadAhead() {
  const byRequest = new WeakMap<object, RememberedGrant>();
  return {
    keep(request: object, remembered: RememberedGrant): void {
      byRequest.set(request, remembered);
    },
    take(request: object, accountId: string, clientId: string): RememberedGrant | undefined {
      const remembered = byRequest.get(request);
      byRequest.delete(request);
      if (!remembered || remembered.accountId !== accountId || remembered.clientId !== clientId) return undefined;
      return Date.now() - remembered.at <= HANDOFF_MS ? remembered : undefined;
    },
    forget(request: object | undefined): void {
      if (request) byRequest.delete(request);
    },
  };
}
