/**
 * Writes one run's figures to bench/results/<date>-<commit>.json, so measurements are kept as
 * files (committed when someone chooses to keep a run) instead of prose. The file carries what
 * is needed to read a ratio later: the commit and whether the tree had changes beside it, the
 * machine's cores and load when the run started and ended, and every row of the table.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SectionResult } from './table';

export const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** The machine as the run saw it: ratios move with its cores and its load. */
export interface MachineState {
  cores: number;
  cpuModel: string;
  loadAverage: [number, number, number];
}

export function machineState(): MachineState {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return { cores: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown', loadAverage: [one, five, fifteen].map((n) => Math.round(n * 100) / 100) as [number, number, number] };
}

/** The checked-out commit (short) and whether tracked files differ from it; "unknown" outside git. */
function commitOf(cwd: string): { commit: string; uncommittedChanges: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    let uncommittedChanges = false;
    try {
      execFileSync('git', ['diff', '--quiet', 'HEAD'], { cwd, stdio: 'ignore' });
    } catch {
      uncommittedChanges = true;
    }
    return { commit, uncommittedChanges };
  } catch {
    return { commit: 'unknown', uncommittedChanges: null };
  }
}

export interface RunRecord {
  startedAt: Date;
  finishedAt: Date;
  /** The sections asked for on the command line (empty: all). */
  sectionsAsked: string[];
  machineAtStart: MachineState;
  results: SectionResult[];
}

/**
 * Writes the record and answers the file's path. A second run of the same commit on the same
 * day gets `-2`, `-3`... rather than replacing the first.
 */
export function writeResultsFile(record: RunRecord, dir = RESULTS_DIR): string {
  const { commit, uncommittedChanges } = commitOf(path.dirname(dir));
  const date = record.startedAt.toISOString().slice(0, 10);
  mkdirSync(dir, { recursive: true });
  let file = path.join(dir, `${date}-${commit}.json`);
  for (let n = 2; existsSync(file); n++) file = path.join(dir, `${date}-${commit}-${n}.json`);
  const failed = record.results.some((result) => result.rows.some((row) => row.status === 'FAIL'));
  const body = {
    commit,
    uncommittedChanges,
    startedAt: record.startedAt.toISOString(),
    finishedAt: record.finishedAt.toISOString(),
    seconds: Math.round((record.finishedAt.getTime() - record.startedAt.getTime()) / 100) / 10,
    node: process.version,
    sectionsAsked: record.sectionsAsked,
    machine: { atStart: record.machineAtStart, atEnd: machineState() },
    outcome: failed ? 'FAIL' : 'PASS',
    sections: record.results,
  };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
