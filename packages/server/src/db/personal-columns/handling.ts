/**
 * What the deletion purge (modules/account/purge*.ts) does with a column once an account's
 * deletion window has passed.
 *
 * - `no`: holds nothing that names a person (ids, amounts, dates, our own settings).
 * - `deleteRow`: the account's rows are deleted (found by user id, or by its email address).
 * - `clear`: set to null (or emptied) on the account's rows, which stay for what they record.
 * - `anonymise`: replaced by a value that names nobody (`deleted-<id>@deleted.invalid`, 'Deleted user').
 * - `keep(reason)`: kept after the purge; the privacy text (account.deletion and
 *   privacy.retention in both languages) names each of these and for how long.
 */
export type ColumnHandling = 'no' | 'deleteRow' | 'clear' | 'anonymise' | { kept: string };

/** Tables by SQL name, each with every one of its columns by SQL name. */
export type PersonalColumns = Record<string, Record<string, ColumnHandling>>;

export const no = 'no' as const;
export const deleteRow = 'deleteRow' as const;
export const clear = 'clear' as const;
export const anonymise = 'anonymise' as const;
