import { and, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { ACCOUNTING_RETENTION_YEARS } from '../../db/personal-columns';
import { orders, users, walletChainWithdrawals, walletEntries, walletPartnerTransfers, walletWhcDeposits } from '../../db/schema';

/** What a purged account's money records keep in place of an address or account (those columns are required). */
export const CLEARED_COUNTERPARTY = 'deleted';
/** The same for a withdrawal's BEP20 address, which must stay an address (a check constraint). */
export const CLEARED_CHAIN_ADDRESS = `0x${'0'.repeat(40)}`;

/**
 * What accounting law keeps of a purged account (db/personal-columns/: `kept`), cleared once
 * the law no longer requires it: ACCOUNTING_RETENTION_YEARS after the end of the record's year.
 * Invoices lose their billing name and address; money movements the address or account they
 * went to or came from (a movement still pending is left alone). Number, date and amounts stay,
 * and so does a withdrawal's signed transaction: it is public on the chain under its hash, and
 * the table's constraints tie it to the hash and nonce.
 */
export async function expireAccountingRecords(db: Database, now: Date): Promise<void> {
  const firstKeptYear = new Date(Date.UTC(now.getUTCFullYear() - ACCOUNTING_RETENTION_YEARS, 0, 1));
  const purged = db.select({ id: users.id }).from(users).where(sql`${users.purgedAt} is not null`);
  const cleared = sql`${CLEARED_COUNTERPARTY}`;

  await db
    .update(orders)
    .set({ billingAddress: null })
    .where(and(lt(orders.createdAt, firstKeptYear), inArray(orders.userId, purged), sql`${orders.billingAddress} is not null`));
  await db
    .update(walletEntries)
    .set({ destination: null })
    .where(and(lt(walletEntries.createdAt, firstKeptYear), inArray(walletEntries.initiatedBy, purged), sql`${walletEntries.destination} is not null`));
  await db
    .update(walletChainWithdrawals)
    .set({ address: CLEARED_CHAIN_ADDRESS })
    .where(and(lt(walletChainWithdrawals.createdAt, firstKeptYear), inArray(walletChainWithdrawals.userId, purged), ne(walletChainWithdrawals.status, 'pending'), ne(walletChainWithdrawals.address, CLEARED_CHAIN_ADDRESS)));
  await db
    .update(walletPartnerTransfers)
    .set({ recipient: cleared })
    .where(and(lt(walletPartnerTransfers.createdAt, firstKeptYear), inArray(walletPartnerTransfers.userId, purged), ne(walletPartnerTransfers.status, 'pending'), ne(walletPartnerTransfers.recipient, CLEARED_COUNTERPARTY)));
  await db
    .update(walletWhcDeposits)
    .set({ fromAddress: cleared })
    .where(and(lt(walletWhcDeposits.createdAt, firstKeptYear), inArray(walletWhcDeposits.userId, purged), ne(walletWhcDeposits.status, 'pending'), ne(walletWhcDeposits.fromAddress, CLEARED_COUNTERPARTY)));
}
