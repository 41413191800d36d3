import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { formatMoney, isLanguage, paths, type Language, type PayoutSettings, type Reward, type RewardRequest, type WalletCurrency } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { researcherSettings, walletEntries, walletPayouts, walletRewards } from './tables';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import { sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { renderAlert, type Mailer } from '../../platform/mail';
import { createNotification } from '../notifications';
import { createUserService, type UserRow } from '../users';
import { post, rows, type Tx } from './ledger';

/** The system account payouts are paid from (it goes below zero by what the platform has paid researchers). */
export const PAYOUTS_ACCOUNT = 'payouts';
/** Payouts run on this day of each month (UTC). */
export const PAYOUT_DAY = 10;

/** The product posting a reward (its client-credentials token, checked by the oauth module). */
export interface RewardPoster {
  clientId: string;
}

/** Test hooks of the payout job: `claimed` runs inside a payout's transaction (a throw rolls it back), `paid` after its commit. */
export interface PayoutHooks {
  claimed?(userId: string, currency: WalletCurrency): Promise<void> | void;
  paid?(userId: string, currency: WalletCurrency): Promise<void> | void;
}

export interface PayoutRunResult {
  /** False on any day but the 10th (UTC): nothing was looked at. */
  payday: boolean;
  /** The payouts this run made (each one entry; another runner's are not counted). */
  payouts: number;
}

type RewardRow = typeof walletRewards.$inferSelect;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `2026-12` -> `December 2026` (the statement's month, in the person's language). */
export function monthName(period: string, lang: Language): string {
  const [year, month] = period.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'vi' ? 'vi-VN' : 'en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year!, month! - 1, 1)));
}

/** The next payout date (YYYY-MM-DD) from `now`: the 10th of this month, or of the next one once this one's has begun. */
export function nextPayoutDate(now: Date): string {
  const payday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), PAYOUT_DAY);
  const next = now.getTime() < payday ? new Date(payday) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, PAYOUT_DAY));
  return next.toISOString().slice(0, 10);
}

function toReward(row: RewardRow): Reward {
  return {
    reward_id: row.externalId,
    researcher_id: row.userId,
    program_alias: row.programAlias,
    currency: row.currency as WalletCurrency,
    amount_minor: String(row.amountMinor),
    status: row.status as Reward['status'],
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    canceled_at: row.canceledAt?.toISOString() ?? null,
  };
}

const researcherReward = (row: Pick<RewardRow, 'id' | 'programAlias' | 'currency' | 'amountMinor' | 'createdAt'>) => ({
  id: row.id,
  program_alias: row.programAlias,
  currency: row.currency as WalletCurrency,
  amount_minor: String(row.amountMinor),
  created_at: row.createdAt.toISOString(),
});

const paidCopy = {
  en: (amount: string, count: number, currency: string, month: string) => ({
    title: 'Your rewards were paid',
    line: `${amount} for ${count} ${count === 1 ? 'reward' : 'rewards'} was paid into your ${currency} wallet (payout for ${month}).`,
    label: 'Open the wallet',
  }),
  vi: (amount: string, count: number, currency: string, month: string) => ({
    title: 'Tiền thưởng của bạn đã được chi trả',
    line: `${amount} cho ${count} phần thưởng đã được chuyển vào ví ${currency} của bạn (chi trả ${month}).`,
    label: 'Mở ví',
  }),
} satisfies Record<Language, unknown>;

/**
 * Researcher rewards and their payouts. A product (the bug-bounty platform's back end) records
 * approved rewards, once per its own reward id, and may cancel one not paid yet. On the 10th of
 * each month (UTC) the job pays every researcher who chose a payout method their approved rewards
 * recorded before that day: per researcher and currency, one transaction claims the rewards (one
 * `UPDATE ... WHERE status = 'approved' RETURNING`, so a parallel runner or a cancel finds them
 * taken), writes one ledger entry from the `payouts` account into the wallet, and the statement
 * row. A crash rolls back the payout it was in; running again pays what is left, never twice.
 *
 * No conversion: rewards in the chosen currency go to that wallet; rewards in another currency go
 * to the wallet of their own currency. Without a chosen method, rewards wait (approved).
 */
export function createPayoutService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  log: { error(object: unknown, message: string): void };
  hooks?: PayoutHooks;
}) {
  const { db, clock } = deps;
  const users = createUserService(db);

  const findReward = async (clientId: string, externalId: string) =>
    (await db.select().from(walletRewards).where(and(eq(walletRewards.clientId, clientId), eq(walletRewards.externalId, externalId))))[0];

  async function researcherOf(identifier: string): Promise<UserRow | undefined> {
    const value = identifier.trim();
    const user = UUID.test(value) ? await users.findById(value.toLowerCase()) : value.includes('@') ? await users.findByEmail(value) : undefined;
    return user && user.activatedAt && !user.deletionRequestedAt && !user.purgedAt ? user : undefined;
  }

  async function settingsRow(userId: string) {
    const [row] = await db.select().from(researcherSettings).where(eq(researcherSettings.userId, userId));
    return row;
  }

  /**
   * Pays one researcher's approved rewards of one currency (recorded before `cutoff`) in one
   * transaction; the payout's id, or null when another runner took them. The monthly run leaves
   * rewards an operator held; an operator's approval (`includeHeld`) pays them too.
   */
  async function payOne(userId: string, currency: WalletCurrency, period: string, cutoff: Date, now: Date, includeHeld = false) {
    return db.transaction(async (tx: Tx) => {
      const payoutId = randomUUID();
      const claimed = await rows<{ id: string; amount: string; program: string }>(
        tx,
        sql`update wallet_rewards set status = 'paid', payout_id = ${payoutId}, paid_at = ${now.toISOString()}
          where user_id = ${userId} and currency = ${currency} and status = 'approved' and created_at < ${cutoff.toISOString()}
            and (held_at is null or ${includeHeld})
          returning id, amount_minor::text as amount, program_alias as program`,
      );
      if (claimed.length === 0) return null;
      await deps.hooks?.claimed?.(userId, currency);
      const total = claimed.reduce((sum, reward) => sum + Number(reward.amount), 0);
      if (!Number.isSafeInteger(total)) throw new Error('payout total out of range');
      const programs = [...new Set(claimed.map((reward) => reward.program))].sort();
      const note = `Payout for ${monthName(period, 'en')}: ${claimed.length} ${claimed.length === 1 ? 'reward' : 'rewards'} (${programs.join(', ')})`.slice(0, 500);
      const [entry] = await tx
        .insert(walletEntries)
        .values({ kind: 'payout', currency, status: 'completed', idempotencyKey: `payout:${payoutId}`, note, createdAt: now })
        .returning({ id: walletEntries.id });
      await post(tx, entry!.id, currency, [
        { account: { system: PAYOUTS_ACCOUNT }, amount: -total },
        { account: { userId }, amount: total },
      ]);
      await tx.insert(walletPayouts).values({ id: payoutId, userId, period, currency, amountMinor: total, rewardCount: claimed.length, entryId: entry!.id, createdAt: now });
      return { payoutId, entryId: entry!.id, total, count: claimed.length };
    });
  }

  /** The in-app notification and the mail of a payout; never throws (the money has moved already). */
  async function tell(userId: string, currency: WalletCurrency, period: string, paid: { entryId: string; total: number; count: number }) {
    try {
      const user = await users.findById(userId);
      if (!user) return;
      const lang: Language = isLanguage(user.language) ? user.language : 'en';
      const amount = formatMoney({ minor: BigInt(paid.total) }, currency, lang);
      const text = paidCopy[lang](amount, paid.count, currency, monthName(period, lang));
      await createNotification(deps, userId, { type: 'transactions', title: text.title, body: text.line, metadata: { transaction_id: paid.entryId } });
      const origin = originFor(deps.config, 'platform');
      const rendered = renderAlert({ lang, brand: 'platform', name: user.fullName, title: text.title, lines: [text.line], link: { label: text.label, url: `${origin}${paths.walletPayout}` } });
      deps.mailer.send({ to: user.email, ...rendered }).catch((error: unknown) => deps.log.error({ err: error }, 'payout mail not sent'));
    } catch (error) {
      deps.log.error({ err: error }, 'payout notification not recorded');
    }
  }

  return {
    /** Records an approved reward once per (product, reward id); the same body again answers the first; another body is refused. */
    async postReward(poster: RewardPoster, request: RewardRequest): Promise<{ reward: Reward; created: boolean }> {
      const digest = sha256(
        JSON.stringify({ researcher: request.researcher.trim().toLowerCase(), program: request.program_alias, currency: request.currency, amount: request.amount_minor }),
      );
      const existing = async () => {
        const found = await findReward(poster.clientId, request.reward_id);
        if (found && found.requestDigest !== digest) throw new AppError('payouts.reward_conflict');
        return found && { reward: toReward(found), created: false };
      };
      const before = await existing();
      if (before) return before;
      const researcher = await researcherOf(request.researcher);
      if (!researcher) throw new AppError('payouts.researcher_not_found');
      const [inserted] = await db
        .insert(walletRewards)
        .values({
          clientId: poster.clientId,
          externalId: request.reward_id,
          requestDigest: digest,
          userId: researcher.id,
          programAlias: request.program_alias,
          currency: request.currency,
          amountMinor: Number(request.amount_minor),
          createdAt: clock.now(),
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) return { reward: toReward(inserted), created: true };
      // A parallel request with the same id committed first.
      const first = await existing();
      if (!first) throw new AppError('payouts.reward_conflict');
      return first;
    },

    async getReward(poster: RewardPoster, externalId: string): Promise<Reward> {
      const found = await findReward(poster.clientId, externalId);
      if (!found) throw new AppError('not_found');
      return toReward(found);
    },

    /** Cancels a reward not paid yet, in one statement (the job's claim and this one cannot both take it). */
    async cancelReward(poster: RewardPoster, externalId: string): Promise<Reward> {
      const [canceled] = await db
        .update(walletRewards)
        .set({ status: 'canceled', canceledAt: clock.now() })
        .where(and(eq(walletRewards.clientId, poster.clientId), eq(walletRewards.externalId, externalId), eq(walletRewards.status, 'approved')))
        .returning();
      if (canceled) return toReward(canceled);
      const found = await findReward(poster.clientId, externalId);
      if (!found) throw new AppError('not_found');
      if (found.status === 'paid') throw new AppError('payouts.reward_paid');
      return toReward(found);
    },

    async settings(userId: string): Promise<PayoutSettings> {
      const [row, user, pending, payouts] = await Promise.all([
        settingsRow(userId),
        users.findById(userId),
        db.select().from(walletRewards).where(and(eq(walletRewards.userId, userId), eq(walletRewards.status, 'approved'))).orderBy(asc(walletRewards.createdAt)).limit(100),
        db.select().from(walletPayouts).where(eq(walletPayouts.userId, userId)).orderBy(desc(walletPayouts.createdAt)).limit(12),
      ]);
      const included = payouts.length
        ? await db.select().from(walletRewards).where(inArray(walletRewards.payoutId, payouts.map((payout) => payout.id))).orderBy(asc(walletRewards.createdAt))
        : [];
      return {
        payout_currency: (row?.payoutCurrency as WalletCurrency | null | undefined) ?? null,
        profile_public: row?.profilePublic ?? false,
        username: user?.username ?? null,
        next_payout: nextPayoutDate(clock.now()),
        pending: pending.map(researcherReward),
        statements: payouts.map((payout) => ({
          id: payout.id,
          period: payout.period,
          currency: payout.currency as WalletCurrency,
          amount_minor: String(payout.amountMinor),
          transaction_id: payout.entryId,
          created_at: payout.createdAt.toISOString(),
          rewards: included.filter((reward) => reward.payoutId === payout.id).map(researcherReward),
        })),
      };
    },

    async setPayoutMethod(userId: string, currency: WalletCurrency): Promise<PayoutSettings> {
      await db
        .insert(researcherSettings)
        .values({ userId, payoutCurrency: currency, updatedAt: clock.now() })
        .onConflictDoUpdate({ target: researcherSettings.userId, set: { payoutCurrency: currency, updatedAt: clock.now() } });
      return this.settings(userId);
    },

    async setProfilePublic(userId: string, profilePublic: boolean): Promise<PayoutSettings> {
      await db
        .insert(researcherSettings)
        .values({ userId, profilePublic, updatedAt: clock.now() })
        .onConflictDoUpdate({ target: researcherSettings.userId, set: { profilePublic, updatedAt: clock.now() } });
      return this.settings(userId);
    },

    /** The public profile by username: display name and accepted programs (with an approved or paid reward); 404 when off, unknown or gone. */
    async publicProfile(username: string) {
      const user = username.includes('@') ? undefined : await users.findByIdentifier(username);
      if (!user?.username || !user.activatedAt || user.deletionRequestedAt || user.purgedAt) throw new AppError('not_found');
      const row = await settingsRow(user.id);
      if (!row?.profilePublic) throw new AppError('not_found');
      const [counted] = await rows<{ n: number }>(
        db,
        sql`select count(distinct program_alias)::int as n from wallet_rewards where user_id = ${user.id} and status in ('approved', 'paid')`,
      );
      return { username: user.username, display_name: user.fullName, accepted_programs: Number(counted?.n ?? 0) };
    },

    /**
     * The payout job's one run: on the 10th (UTC) pays every researcher with a payout method
     * their approved rewards recorded before that day; any other day does nothing. Safe to run
     * on several nodes at once and again after a crash (each payout claims its rewards atomically).
     */
    async run(now: Date = clock.now()): Promise<PayoutRunResult> {
      if (now.getUTCDate() !== PAYOUT_DAY) return { payday: false, payouts: 0 };
      const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), PAYOUT_DAY));
      const period = cutoff.toISOString().slice(0, 7);
      const groups = await rows<{ user_id: string; currency: WalletCurrency }>(
        db,
        sql`select distinct r.user_id, r.currency from wallet_rewards r
          join researcher_settings s on s.user_id = r.user_id and s.payout_currency is not null
          where r.status = 'approved' and r.held_at is null and r.created_at < ${cutoff.toISOString()}
          order by r.user_id, r.currency`,
      );
      let payouts = 0;
      for (const group of groups) {
        const paid = await payOne(group.user_id, group.currency, period, cutoff, now);
        if (!paid) continue;
        payouts += 1;
        await deps.hooks?.paid?.(group.user_id, group.currency);
        await tell(group.user_id, group.currency, period, paid);
      }
      return { payday: true, payouts };
    },

    /**
     * An operator's approval: pays the researcher's approved rewards of this currency now (held
     * ones too) as the monthly run would, in one claimed transaction, so two approvals at once pay
     * once. Refused when nothing waits, or the researcher has chosen no payout method.
     */
    async payNow(userId: string, currency: WalletCurrency) {
      const settings = await settingsRow(userId);
      if (!settings?.payoutCurrency) throw new AppError('admin.payout_method_missing');
      const now = clock.now();
      const paid = await payOne(userId, currency, now.toISOString().slice(0, 7), new Date(now.getTime() + 1), now, true);
      if (!paid) throw new AppError('admin.payout_nothing_due');
      await tell(userId, currency, now.toISOString().slice(0, 7), paid);
      return paid;
    },
  };
}

export type PayoutService = ReturnType<typeof createPayoutService>;
