import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the longest test files first, so that the last minute of a run is short files on both
 * workers, not one long file on one worker with the other idle.
 *
 * Vitest's own sequencer orders by the durations of the previous run, from its cache under
 * node_modules/.vite; a fresh clone (CI) has none, and it orders by file size there, which
 * put the crash-safety file (several seconds a test, each killing real server processes)
 * anywhere in the run. scripts/vitest-durations.json keeps the seconds of the slow files of
 * a full run (`node scripts/vitest-durations.mjs .cache/reports/vitest.json` writes it again);
 * a file it does not name counts as short, after the ones it names, by size.
 *
 * Projects stay together, server first: a server worker (isolate: false) is kept for the next
 * file only when that file is a server file too, and a new one imports the whole server again.
 */
const DURATIONS: Record<string, number> = JSON.parse(readFileSync(new URL('./vitest-durations.json', import.meta.url), 'utf8'));
const PROJECT_ORDER = ['server', 'web', 'contracts'];

function projectRank(spec: TestSpecification): number {
  const index = PROJECT_ORDER.indexOf(spec.project.name);
  return index === -1 ? PROJECT_ORDER.length : index;
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // The base order (failed first, then by cached duration or size) breaks the ties.
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification) => DURATIONS[spec.moduleId.slice(root.length + 1)] ?? 0;
    return base
      .map((spec, index) => ({ spec, index, rank: projectRank(spec), seconds: seconds(spec) }))
      .sort((a, b) => a.rank - b.rank || b.seconds - a.seconds || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
