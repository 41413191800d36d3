/**
 * Writes scripts/vitest-durations.json, the order scripts/vitest-sequencer.ts runs test files
 * in, from a vitest JSON report: `node scripts/vitest-durations.mjs .cache/reports/vitest.json`.
 * Files of 2 s or more, in seconds; shorter ones it leaves out (they come last anyway).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? path.join(ROOT, '.cache/reports/vitest.json'), 'utf8'));
const durations = report.testResults
  .map((file) => [path.relative(ROOT, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
  .filter(([, seconds]) => seconds >= 2)
  .sort((a, b) => b[1] - a[1]);
writeFileSync(path.join(ROOT, 'scripts/vitest-durations.json'), `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
console.log(`scripts/vitest-durations.json: ${durations.length} files of ${report.testResults.length}`);
