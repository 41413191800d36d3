import { evictOldest } from '../../platform/bounded-map';
import type { UserRow } from '../users';

/** How long a person's row answers the provider's account lookups without reading it again. */
export const ACCOUNT_TTL_MS = 5000;
const MAX_ACCOUNTS = 10_000;

/**
 * The person behind a token, for oidc-provider's findAccount, read at most once per
 * ACCOUNT_TTL_MS per person in this process: one code flow asks for the account several times
 * (authorization, token, ID token, then the product's userinfo), and each refresh grant once.
 *
 * Why a stale row cannot let anyone in: a token is only honoured while its row exists, read
 * from the database or from a node's token cache, which every deletion of the row empties of it
 * (token-cache.ts). Ending a person's sessions (sign-out everywhere, a
 * password reset, an account deletion) deletes their tokens and provider sessions in the same
 * step (service.ts, portalSessionsEnded), on whichever node did it, and forgets the row here
 * when it happens on this node. A deleted, purged or locked person is never kept. What may lag by up
 * to ACCOUNT_TTL_MS is a claim: a name, address or language changed seconds before a refresh.
 */
export function accountReader(findById: (id: string) => Promise<UserRow | undefined>) {
  const rows = new Map<string, { user: UserRow; at: number }>();

  function remember(user: UserRow): void {
    if (rows.size >= MAX_ACCOUNTS && !rows.has(user.id)) evictOldest(rows, MAX_ACCOUNTS);
    rows.set(user.id, { user, at: Date.now() });
  }

  return {
    /** The person, or undefined when they do not exist, asked for deletion or are locked by an operator (as the API's guard refuses them). */
    async read(id: string): Promise<UserRow | undefined> {
      const kept = rows.get(id);
      if (kept && Date.now() - kept.at <= ACCOUNT_TTL_MS) return kept.user;
      rows.delete(id);
      const user = await findById(id);
      if (!user || user.deletionRequestedAt || user.purgedAt || user.lockedAt) return undefined;
      remember(user);
      return user;
    },
    forget: (id: string) => void rows.delete(id),
  };
}
export type AccountReader = ReturnType<typeof accountReader>;
