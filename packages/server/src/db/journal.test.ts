import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './migrate';

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };

describe('migration journal', () => {
  it('lists every SQL file once, in order', () => {
    const files = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).sort();
    expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(files);
    expect(journal.entries.map((entry) => entry.idx)).toEqual(files.map((_, index) => index));
  });

  it('dates each migration after the one before it', () => {
    // drizzle's migrator applies only migrations dated after the last one a database has run:
    // a migration merged in with an older `when` would be skipped on every existing database.
    const dates = journal.entries.map((entry) => entry.when);
    for (let index = 1; index < dates.length; index += 1) expect(dates[index], journal.entries[index]!.tag).toBeGreaterThan(dates[index - 1]!);
  });
});
