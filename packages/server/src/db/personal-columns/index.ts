import { appColumns } from './apps';
import { billingColumns } from './billing';
import type { PersonalColumns } from './handling';
import { identityColumns } from './identity';
import { operatorColumns } from './operators';
import { organizationColumns } from './organizations';
import { walletColumns } from './wallet';

export type { ColumnHandling, PersonalColumns } from './handling';
export { ACCOUNTING_RETENTION_YEARS } from './retention';

/**
 * Every column of the schema, by table and SQL name, and what the deletion purge
 * (modules/account/purge*.ts) does with it (handling.ts says what each handling means).
 * personal-columns.test.ts fails when a table gains a column that is not listed here, and runs
 * the real purge on an account with a row in every table that holds personal data.
 */
export const personalColumns: PersonalColumns = {};
for (const group of [identityColumns, appColumns, organizationColumns, billingColumns, walletColumns, operatorColumns]) {
  for (const [table, columns] of Object.entries(group)) {
    // A table listed in two files would keep only one of its two lists, silently.
    if (table in personalColumns) throw new Error(`${table} is classified twice`);
    personalColumns[table] = columns;
  }
}
