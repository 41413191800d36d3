#!/usr/bin/env node
/**
 * `npm test`: every check this repository has, in order, failing fast.
 *
 *   install      npm ci when node_modules does not match package-lock.json
 *   chromium     /usr/bin/chromium and /usr/bin/chromium-headless-shell (the e2e browser),
 *                from Debian's packages when missing (as root; scripts/ensure-chromium.mjs,
 *                which `npm run bench` runs too)
 *   typecheck    tsc -p tsconfig.json (the server with e2e, bench and scripts), packages/web,
 *                packages/contracts, with TypeScript 7's native compiler (typescript-native)
 *   lint         eslint .
 *   build        the web app (vite build into packages/web/dist), when stale; before the
 *                unit tests because server tests of the HTML shell read packages/web/dist
 *   vitest       vitest run, all projects, once: the server on PostgreSQL and Redis when
 *                TEST_DATABASE_URL (and REDIS_URL) are set, as CI does, else on PGlite with
 *                in-process counters; the end-to-end tests run the server on PGlite either way
 *   e2e          playwright test: the real server and Chromium
 *
 * Everything runs on Node 24 LTS, the runtime: on an older Node this script runs itself again
 * on the pinned binary (scripts/node24.mjs), which the tools it starts then use too.
 *
 * The last line is always `N passed, N failed` (tests of all runners; a stage that fails
 * without failing tests, such as a type error, counts as one failure). CI reads it. A vitest
 * stage whose worker died with no test failing runs once more (`vitestRun` says why).
 *
 * Options: --only=a,b and --skip=a,b take stage names (`npm test -- --only=e2e`). To pass
 * arguments to one tool, run it directly (`npx vitest run path`, `npx playwright test -g x`).
 * Reports: .cache/reports/{vitest,vitest-postgres,playwright}.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_HEADLESS_SHELL, ensureChromium } from './ensure-chromium.mjs';
import { ensureInstall, ROOT } from './ensure-install.mjs';
import { ensureNode24 } from './node24.mjs';
import { runCommand, runCommandKeepingOutput } from './run-command.mjs';

const REPORTS = path.join(ROOT, '.cache', 'reports');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
/**
 * TypeScript 7, the compiler ported to native code, installed beside TypeScript 5 under another
 * name: it checks the same code with the same rules in half the CPU (the server project, one
 * checker thread: 12.6 user-CPU-s against TypeScript 5's 27.8, on the 2-core machine). TypeScript 5 stays for the
 * tools that load the compiler as a library (typescript-eslint, editors), which TypeScript 7
 * does not offer.
 */
const nativeTsc = path.join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc');

const totals = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
const timings = [];

function option(name) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3).split(',').filter(Boolean) : null;
}
const only = option('only');
const skip = option('skip') ?? [];

function heading(text) {
  const line = '━'.repeat(Math.max(4, 72 - text.length));
  console.log(`\n━━ ${text} ${line}`);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Runs a command from the repository's root with live output; resolves with its exit code. */
function run(command, args, env = {}) {
  return runCommand(command, args, { cwd: ROOT, env });
}

/** Runs a command and collects its output (for commands run side by side). */
function capture(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 127, output: `could not run ${command}: ${error.message}` }));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Adds a vitest JSON report to the totals; returns the number of failures it counted. */
function countVitest(file) {
  const report = readJson(file);
  if (!report) return 0;
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(
    `vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ` +
      `${(report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)} skipped in ${report.numTotalTestSuites} suites`,
  );
  return report.numFailedTests ?? 0;
}

/**
 * vitest run with a JSON report, counted. A run whose runtime died under it runs once more: a
 * worker that "exited unexpectedly" with no test failing (seen once in CI: a V8 fatal error,
 * "Check failed: jit_page.has_value()", under Node 24) loses its file's tests without a failure
 * to show. Any other failure stands, and a second crash fails the stage.
 */
async function vitestRun(binary, args, env, report) {
  for (let attempt = 1; ; attempt++) {
    rmSync(report, { force: true });
    const { code, output } = await runCommandKeepingOutput(binary, [...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: ROOT, env });
    const runtimeDied = code !== 0 && output.includes('Worker exited unexpectedly') && !readJson(report)?.numFailedTests;
    if (!runtimeDied || attempt === 2) return { code, failures: countVitest(report), note: attempt === 2 ? 'run twice: a worker died the first time' : undefined };
    console.log('\n↻ a vitest worker died with no test failing (the runtime, not a test): the stage runs once more');
  }
}

/** Adds a Playwright JSON report to the totals; returns the number of failures it counted. */
function countPlaywright(file) {
  const report = readJson(file);
  if (!report?.stats) return 0;
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
  totals.passed += expected + flaky;
  totals.failed += unexpected;
  totals.skipped += skipped;
  totals.flaky += flaky;
  console.log(`playwright: ${expected + flaky} passed (${flaky} flaky), ${unexpected} failed, ${skipped} skipped`);
  return unexpected;
}

/** eslint over the repository, started once (by the typecheck stage, or by its own). */
let lintRun = null;
const startLint = () => (lintRun ??= capture(bin('eslint'), ['.', '--cache', '--cache-location', path.join(ROOT, '.cache', 'eslint/')]));
let selectedNames = new Set();

const stages = [
  {
    name: 'install',
    title: 'dependencies (npm ci when package-lock.json changed)',
    run: async () => {
      ensureInstall();
      return 0;
    },
  },
  {
    name: 'chromium',
    title: `Chromium for the end-to-end tests (${CHROMIUM_HEADLESS_SHELL})`,
    run: ensureChromium,
  },
  {
    name: 'typecheck',
    title: 'typecheck (tsc: server with e2e/bench/scripts, web, contracts)',
    run: async () => {
      // eslint runs beside the type checks when both are selected: three processes keep the two
      // cores busy where tsc alone leaves one idle at the end.
      if (selectedNames.has('lint')) startLint();
      // Two at a time (2 cores); each project's output is printed whole when it finishes. The
      // root project holds the server (tsconfig.json says why), so the server is checked once.
      const projects = ['tsconfig.json', 'packages/web', 'packages/contracts'];
      const failed = [];
      const worker = async () => {
        for (let project = projects.shift(); project; project = projects.shift()) {
          const t0 = Date.now();
          // Incremental: a re-run re-checks only what changed (.cache is gitignored).
          const buildInfo = path.join(ROOT, '.cache', 'tsc-native', `${project.replace(/[\\/]/g, '_')}.tsbuildinfo`);
          // One checker thread each: two projects and eslint already share the two cores, and its
          // default of four checkers spent twice the CPU for the same time (server project:
          // 26 CPU-s against 12.6, both about 26-28 s under load).
          const { code, output } = await capture(nativeTsc, ['-p', project, '--checkers', '1', '--incremental', '--tsBuildInfoFile', buildInfo]);
          console.log(`$ tsc -p ${project}  (${seconds(Date.now() - t0)}${code === 0 ? ', no errors' : ''})`);
          if (output.trim()) console.log(output.trimEnd());
          if (code !== 0) failed.push(project);
        }
      };
      await Promise.all([worker(), worker()]);
      if (failed.length) console.log(`type errors in ${failed.join(', ')}`);
      return failed.length ? 1 : 0;
    },
  },
  {
    name: 'lint',
    title: 'lint (eslint .)',
    run: async () => {
      const { code, output } = await startLint();
      if (output.trim()) console.log(output.trimEnd());
      return code;
    },
  },
  {
    // Before the unit tests: server tests of the HTML shell read packages/web/dist.
    name: 'build',
    title: 'build the web app (vite build, when stale)',
    run: async () => {
      const { ensureWebBuilt } = await import('./web-build.mjs');
      try {
        ensureWebBuilt();
        return 0;
      } catch (error) {
        console.log(error instanceof Error ? error.message : error);
        return 1;
      }
    },
  },
  {
    name: 'vitest',
    title: 'unit and integration tests (vitest run: contracts, server, web)',
    run: async () => {
      // One run, on the database the environment offers: PostgreSQL and Redis when CI has them
      // (what a deployment with several nodes runs), else the embedded defaults. PGlite stays
      // covered end to end (the e2e server runs on it) and by the tests that open it themselves
      // (crash safety, the data folder's lock).
      const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
      console.log(onPostgres ? `database: ${process.env.TEST_DATABASE_URL}; redis: ${process.env.REDIS_URL || '(in-process)'}` : 'database: PGlite; counters: in-process');
      const env = onPostgres ? { TEST_DB: 'postgres' } : { TEST_DB: 'pglite', REDIS_URL: undefined };
      return vitestRun(bin('vitest'), ['run'], env, path.join(REPORTS, 'vitest.json'));
    },
  },
  {
    name: 'e2e',
    title: 'end-to-end tests (playwright test: real server, Chromium)',
    run: async () => {
      const report = path.join(REPORTS, 'playwright.json');
      rmSync(report, { force: true });
      const code = await run(bin('playwright'), ['test'], { E2E_JSON_REPORT: report });
      return { code, failures: countPlaywright(report) };
    },
  },
];

async function main() {
  await ensureNode24();
  mkdirSync(REPORTS, { recursive: true });
  const started = Date.now();
  const selected = stages.filter((stage) => (only ? only.includes(stage.name) : true) && !skip.includes(stage.name));
  selectedNames = new Set(selected.map((stage) => stage.name));
  let failedStage = null;

  for (const [index, stage] of selected.entries()) {
    heading(`[${index + 1}/${selected.length}] ${stage.title}`);
    const skipReason = await stage.when?.();
    if (skipReason) {
      console.log(`skipped: ${skipReason}`);
      timings.push({ name: stage.name, ms: 0, result: 'skipped' });
      continue;
    }
    const t0 = Date.now();
    let outcome;
    try {
      outcome = await stage.run();
    } catch (error) {
      console.log(error instanceof Error ? error.message : error);
      outcome = 1;
    }
    const code = typeof outcome === 'number' ? outcome : outcome.code;
    const ms = Date.now() - t0;
    const note = typeof outcome === 'object' && outcome.note ? ` (${outcome.note})` : '';
    timings.push({ name: stage.name, ms, result: (code === 0 ? 'ok' : `FAILED (exit ${code})`) + note });
    if (code !== 0) {
      // A stage that fails without failing tests (typecheck, lint, a runner that crashed or
      // could not load a file) counts as one failure.
      const failures = typeof outcome === 'number' ? 0 : outcome.failures;
      if (failures === 0) totals.failed += 1;
      failedStage = stage;
      console.log(`\n✖ stage "${stage.name}" failed after ${seconds(ms)}`);
      break;
    }
    console.log(`✔ ${stage.name} (${seconds(ms)})`);
  }

  heading('summary');
  for (const { name, ms, result } of timings) console.log(`  ${name.padEnd(10)} ${seconds(ms).padStart(8)}  ${result}`);
  console.log(`  ${'total'.padEnd(10)} ${seconds(Date.now() - started).padStart(8)}`);
  if (totals.skipped || totals.flaky) console.log(`  (${totals.skipped} skipped, ${totals.flaky} flaky passed on retry)`);
  if (failedStage) console.log(`  first failure: ${failedStage.name}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  process.exitCode = failedStage || totals.failed > 0 ? 1 : 0;
}

main().catch((error) => {
  console.log(error);
  console.log(`${totals.passed} passed, ${totals.failed + 1} failed`);
  process.exit(1);
});
