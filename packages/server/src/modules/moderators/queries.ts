import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { websiteModerators } from './tables';

export type ModeratorRow = typeof websiteModerators.$inferSelect;

/** A product's website: the first-party client that owns it and its own id. */
export interface WebsiteKey {
  clientId: string;
  websiteId: string;
}

const live = () => isNull(websiteModerators.revokedAt);
const pending = () => and(isNull(websiteModerators.acceptedAt), isNull(websiteModerators.revokedAt));
const ofWebsite = (website: WebsiteKey) => and(eq(websiteModerators.clientId, website.clientId), eq(websiteModerators.websiteId, website.websiteId));

export function moderatorQueries(db: Database) {
  return {
    /** The live (not revoked) row of an email on a website. */
    async liveOf(website: WebsiteKey, email: string): Promise<ModeratorRow | undefined> {
      const [row] = await db.select().from(websiteModerators).where(and(ofWebsite(website), eq(websiteModerators.email, email), live())).limit(1);
      return row;
    },

    /** A new invitation; undefined when a live one for this website and email exists (a parallel request made it: the partial unique index decides). */
    async insert(row: typeof websiteModerators.$inferInsert): Promise<ModeratorRow | undefined> {
      const [inserted] = await db.insert(websiteModerators).values(row).onConflictDoNothing().returning();
      return inserted;
    },

    /** A new link and expiry for a pending invitation (its old link stops working). */
    async renew(id: string, tokenHash: string, expiresAt: Date, websiteName: string, language: string | null): Promise<ModeratorRow | undefined> {
      const [row] = await db
        .update(websiteModerators)
        .set({ tokenHash, expiresAt, websiteName, language, signupClaimedAt: null })
        .where(and(eq(websiteModerators.id, id), pending()))
        .returning();
      return row;
    },

    async rename(id: string, websiteName: string): Promise<void> {
      await db.update(websiteModerators).set({ websiteName }).where(eq(websiteModerators.id, id));
    },

    async byTokenHash(tokenHash: string): Promise<ModeratorRow | undefined> {
      const [row] = await db.select().from(websiteModerators).where(eq(websiteModerators.tokenHash, tokenHash)).limit(1);
      return row;
    },

    async byId(id: string): Promise<ModeratorRow | undefined> {
      const [row] = await db.select().from(websiteModerators).where(eq(websiteModerators.id, id)).limit(1);
      return row;
    },

    /** The website's moderators and invitations, revoked ones left out, oldest first. */
    async listOf(website: WebsiteKey): Promise<ModeratorRow[]> {
      return db.select().from(websiteModerators).where(and(ofWebsite(website), live())).orderBy(asc(websiteModerators.createdAt), asc(websiteModerators.id));
    },

    /** Takes a pending, unexpired invitation for an account in one statement: of parallel takers exactly one gets the row. */
    async accept(id: string, userId: string, now: Date): Promise<ModeratorRow | undefined> {
      const [row] = await db
        .update(websiteModerators)
        .set({ acceptedAt: now, userId })
        .where(and(eq(websiteModerators.id, id), pending(), gt(websiteModerators.expiresAt, now)))
        .returning();
      return row;
    },

    /** Every invitation this email signed up from (pending, unexpired), accepted for the activated account at once. */
    async acceptClaimed(email: string, userId: string, now: Date): Promise<ModeratorRow[]> {
      return db
        .update(websiteModerators)
        .set({ acceptedAt: now, userId })
        .where(and(eq(websiteModerators.email, email), pending(), isNotNull(websiteModerators.signupClaimedAt), gt(websiteModerators.expiresAt, now)))
        .returning();
    },

    async claimForSignUp(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(websiteModerators)
        .set({ signupClaimedAt: now })
        .where(and(eq(websiteModerators.id, id), pending(), gt(websiteModerators.expiresAt, now)))
        .returning({ id: websiteModerators.id });
      return rows.length > 0;
    },

    /** Withdraws an invitation or removes a moderator of the website; whether there was a live one. */
    async revoke(website: WebsiteKey, id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(websiteModerators)
        .set({ revokedAt: now })
        .where(and(eq(websiteModerators.id, id), ofWebsite(website), live()))
        .returning({ id: websiteModerators.id });
      return rows.length > 0;
    },

    /** The accounts of the website's accepted, live moderators. */
    async acceptedUserIds(website: WebsiteKey): Promise<string[]> {
      const rows = await db
        .select({ userId: websiteModerators.userId })
        .from(websiteModerators)
        .where(and(ofWebsite(website), live(), isNotNull(websiteModerators.acceptedAt), isNotNull(websiteModerators.userId)));
      return rows.flatMap((row) => (row.userId ? [row.userId] : []));
    },
  };
}
