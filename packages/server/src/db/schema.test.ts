import { readdirSync } from 'node:fs';
import path from 'node:path';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from './schema';

const src = path.join(import.meta.dirname, '..');
/** Every `tables.ts` of a module or of the platform, from the repository's folders. */
const tablesFiles = ['modules', 'platform'].flatMap((folder) =>
  readdirSync(path.join(src, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(path.join(src, folder, entry.name)).includes('tables.ts'))
    .map((entry) => `${folder}/${entry.name}/tables.ts`),
);

describe('db/schema.ts', () => {
  it('gathers every table a module or the platform declares, so drizzle-kit and the client see it', async () => {
    const gathered = new Set<unknown>(Object.values(schema));
    expect(tablesFiles.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const file of tablesFiles) {
      const declared = Object.values((await import(path.join(src, file))) as Record<string, unknown>).filter((value) => value instanceof PgTable);
      expect(declared.length, `${file} declares a table`).toBeGreaterThan(0);
      for (const table of declared) if (!gathered.has(table)) missing.push(`${file}: ${getTableConfig(table).name}`);
    }
    expect(missing, 'export these from db/schema.ts').toEqual([]);
  });
});
