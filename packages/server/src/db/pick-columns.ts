import { getTableColumns, type Table } from 'drizzle-orm';

/** The named columns of a table, for a select that must leave the others (secrets, hashes) out. */
export function pickColumns<T extends Table, K extends keyof T['_']['columns'] & string>(table: T, ...names: K[]): Pick<T['_']['columns'], K> {
  const columns = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, columns[name]])) as Pick<T['_']['columns'], K>;
}
