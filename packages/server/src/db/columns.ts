import { bigint, customType, timestamp } from 'drizzle-orm/pg-core';

// Column types and defaults the tables of every module share, so each table says them one way.

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const tz = (name: string) => timestamp(name, { withTimezone: true });

/** Amounts in minor units (đồng, cents): whole numbers, never floating point. */
export const money = (name: string) => bigint(name, { mode: 'number' });
