/**
 * The manual (README.md and docs/) stays a manual: the README short and starting with the two
 * commands, every relative link and anchor resolving, every setting the server reads in
 * docs/configuration.md (and none it no longer reads), and no text about work sessions, issue
 * numbers or numbered sections of the spec, which mean nothing to a reader of the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const manual = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The text outside fenced code blocks, line by line (a `# comment` in a shell block is no heading). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchors of a file's headings: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count ? `${slug}-${count}` : slug);
  }
  return result;
}

describe('the manual', () => {
  it('README.md is at most 300 lines and starts with the two commands', () => {
    const lines = read('README.md').split('\n');
    expect(lines.length).toBeLessThanOrEqual(300);
    expect(lines[0]).toMatch(/^# /);
    // The title, one sentence, then the quick start: a code block of exactly `npm start` and `npm test`.
    const fence = lines.findIndex((line) => line.startsWith('```'));
    expect(lines.slice(1, fence).filter((line) => line.trim()).length).toBe(1);
    const block = lines.slice(fence + 1, lines.indexOf('```', fence + 1));
    expect(block.map((line) => line.split('#')[0]!.trim())).toEqual(['npm start', 'npm test']);
  });

  it('every relative link of README.md and docs/ resolves, anchors included', () => {
    const broken: string[] = [];
    for (const file of manual) {
      for (const line of prose(read(file))) {
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:/i.test(target!)) continue;
          const [filePart, anchor] = target!.split('#') as [string, string | undefined];
          const linked = filePart ? path.normalize(path.join(path.dirname(file), filePart)) : file;
          if (linked.startsWith('..') || !existsSync(path.join(ROOT, linked))) broken.push(`${file}: ${target} (no such file in the repository)`);
          else if (anchor && linked.endsWith('.md') && !anchors(read(linked)).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('docs/configuration.md names every variable the server reads, and only those', () => {
    const schema = read('packages/server/src/config.ts');
    const body = schema.slice(schema.indexOf('const envSchema'), schema.indexOf('.transform((env)'));
    const read_ = new Set([...body.matchAll(/^\s{4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!));
    const configuration = read('docs/configuration.md');
    const serverPart = configuration.slice(0, configuration.indexOf('## Rate limits'));
    // A row may name several variables in its first cell (`TERMS_URL`, `PRIVACY_URL`).
    const firstCells = [...serverPart.matchAll(/^\| ([^|]+) \|/gm)].map((match) => match[1]!);
    const documented = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!)));
    expect([...read_].filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !read_.has(name))).toEqual([]);
    expect(serverPart).toContain('`SOCIAL_<ID>_CLIENT_ID`');
  });

  it('speaks of the project as it is: no work sessions, issue numbers or numbered sections of the spec', () => {
    const found = manual.flatMap((file) =>
      read(file)
        .split('\n')
        .filter((line) => /session \d+|issue #?\d+|spec\s+sections?\b|§ ?\d/i.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
