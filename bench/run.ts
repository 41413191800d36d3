/**
 * `npm run bench`: every section in bench/sections, one table.
 *
 *   npm run bench                    all sections
 *   npm run bench -- throughput      only the named sections
 *
 * Exits 1 when a row says FAIL (a budget missed) or a section could not run. The figures also
 * go to bench/results/<date>-<commit>.json (lib/results-file.ts); commit the file to keep the run.
 */
import path from 'node:path';
import { BenchContext } from './lib/context';
import { machineState, writeResultsFile } from './lib/results-file';
import { printTable, type SectionResult } from './lib/table';
import { sections } from './sections';

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = wanted.filter((name) => !sections.some((section) => section.name === name));
  if (unknown.length) {
    console.error(`unknown section(s): ${unknown.join(', ')}; known: ${sections.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
  const chosen = wanted.length ? sections.filter((section) => wanted.includes(section.name)) : sections;
  const context = new BenchContext();
  const results: SectionResult[] = [];
  const started = Date.now();
  const machineAtStart = machineState();
  try {
    for (const section of chosen) {
      console.log(`▶ ${section.title}`);
      const t0 = Date.now();
      try {
        const rows = await section.run(context);
        results.push({ name: section.name, title: section.title, seconds: (Date.now() - t0) / 1000, rows });
      } catch (error) {
        results.push({
          name: section.name,
          title: section.title,
          seconds: (Date.now() - t0) / 1000,
          rows: [{ metric: 'could not run', value: 'n/a', status: 'FAIL', note: (error as Error).message.split('\n')[0] }],
        });
      }
      console.log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    await context.close();
  }
  console.log('');
  printTable(results);
  console.log(`\nbench finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const file = writeResultsFile({ startedAt: new Date(started), finishedAt: new Date(), sectionsAsked: wanted, machineAtStart, results });
  console.log(`figures written to ${path.relative(process.cwd(), file)}`);
  const failed = results.some((result) => result.rows.some((row) => row.status === 'FAIL'));
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
