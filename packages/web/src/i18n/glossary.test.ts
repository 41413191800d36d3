import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import glossary from './glossary.vi.json';

/**
 * One Vietnamese word per thing: the glossary (glossary.vi.json) names the term to use and
 * the variants to avoid; every Vietnamese text (the web catalogues, the intro slides, the
 * server's mail and notification copy) is checked against it.
 */

const here = path.dirname(new URL(import.meta.url).pathname);
const serverSrc = path.resolve(here, '../../../server/src');

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function files(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full, test);
    return test(entry.name) ? [full] : [];
  });
}

/** Every Vietnamese text, with where it comes from. */
function vietnameseTexts(): Array<{ where: string; text: string }> {
  const catalogues = files(here, (name) => /(^|\.)vi\.json$/.test(name) && name !== 'glossary.vi.json');
  const fromCatalogues = catalogues.flatMap((file) => strings(JSON.parse(readFileSync(file, 'utf8'))).map((text) => ({ where: path.relative(here, file), text })));
  // Server copy (mail, notifications): source lines with Vietnamese letters, tests aside.
  const serverFiles = files(serverSrc, (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  const fromServer = serverFiles.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i.test(line))
      .map((text) => ({ where: path.relative(serverSrc, file), text })),
  );
  return [...fromCatalogues, ...fromServer];
}

describe('Vietnamese glossary', () => {
  const texts = vietnameseTexts();

  it('finds the texts it checks', () => {
    expect(texts.length).toBeGreaterThan(200);
  });

  for (const [term, { use, avoid }] of Object.entries(glossary)) {
    it(`"${term}" is always "${use}"`, () => {
      const offending = texts.filter(({ text }) => avoid.some((variant) => new RegExp(`(^|[^\\p{L}])${variant}([^\\p{L}]|$)`, 'iu').test(text)));
      expect(offending.map(({ where, text }) => `${where}: ${text.trim()}`)).toEqual([]);
    });
  }

  it('the chosen terms are in use', () => {
    const all = texts.map(({ text }) => text.toLowerCase()).join('\n');
    for (const { use } of Object.values(glossary)) expect(all).toContain(use);
  });
});
