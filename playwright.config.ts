import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/chromium';

const root = path.dirname(new URL(import.meta.url).pathname);

// Each run keeps its traces and failure screenshots in its own folder: Playwright empties the
// output folder when a run starts, which would wipe those of a run going on beside it in the same
// checkout. Set here, in the runner's process, so the workers it starts inherit the same name;
// e2e/support/global-setup.ts removes the folders of runs a day old.
const runId = (process.env.E2E_RUN_ID ||= `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);

// Node (22 and later) keeps the bytecode of the modules it compiles on disk for the next process:
// the workers, and the 25-odd servers and operator commands a run starts from the same bundle
// and node_modules, inherit this and skip most of compiling again (a server's start took about
// 12 % less CPU). Node checks each entry against its source, and runs side by side share it.
process.env.NODE_COMPILE_CACHE ||= path.join(root, '.cache', 'e2e', 'node-compile-cache');

const specSources = new Map(
  readdirSync(path.join(root, 'e2e'))
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => [file, readFileSync(path.join(root, 'e2e', file), 'utf8')]),
);
const specsWhere = (matches: (source: string) => boolean) => [...specSources].filter(([, source]) => matches(source)).map(([file]) => file);

/**
 * The specs whose tests run one after another in one worker (`mode: 'serial'` or `'default'`):
 * each is one job of the run, most with their own server and set-up in a beforeAll, a minute or
 * several on one lane. Playwright hands jobs to the workers in project order, then file
 * order; these go first (projects "sequential"), the specs whose tests are jobs of one test each
 * after them (projects "parallel"). The run then ends on short jobs that even out the lanes,
 * not on one lane still in a long spec (alphabetically, the wallet specs) while the others idle.
 */
const SEQUENTIAL_SPECS = specsWhere((source) => /describe\.configure\(\{[^}]*mode: '(serial|default)'/.test(source));

/**
 * The specs on support/mail.ts's `test` (its worker fixture, the mail portal). A worker serves
 * only specs of the same worker fixtures: at a job whose fixtures differ from the last one's,
 * Playwright stops the worker and starts another (a process and a Chromium). In file order the
 * mail specs and the others alternate; a project of their own each keeps them together.
 */
const MAIL_SPECS = specsWhere((source) => /import \{[^}]*\btest\b(?! as)[^}]*\} from '\.\/support\/mail'/.test(source));
const inSequential = (mail: boolean) => SEQUENTIAL_SPECS.filter((file) => MAIL_SPECS.includes(file) === mail);

/**
 * End-to-end tests: the real server (packages/server/src/main.ts, PGlite in a temporary
 * folder, started by e2e/support/global-setup.ts on a free port) and Debian's Chromium.
 * The server's address reaches the workers as E2E_* environment variables
 * (e2e/support/env.ts); E2E_BASE_URL=http://localhost:8080 runs against a server you
 * started yourself instead.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: path.join('test-results', runId),
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // Three lanes on the two cores: a lane spends much of its time waiting (a server's start, a
  // page's network, a mail), so two left the cores about half idle, and three keep them about
  // nine tenths busy. The whole suite on one 2-core machine: 2 workers about 700 s, 3 workers
  // 527-600 s, 4 workers 558-648 s (each a server process, a browser and their start-ups
  // more), none flaky.
  workers: Math.max(1, Math.min(3, cpus().length + 1)),
  // Multi-step flows (sign-up, mail, sign-in, a page walk) pass 30 s when the 2 cores are busy
  // with the servers, the lanes' browsers and PostgreSQL: a timeout there was load, not a fault.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.E2E_JSON_REPORT || path.join(root, '.cache', 'reports', 'playwright.json') }],
  ],
  use: {
    browserName: 'chromium',
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: chromiumLaunchOptions(),
    locale: 'en-US',
    timezoneId: 'UTC',
    viewport: { width: 1280, height: 800 },
    navigationTimeout: 20_000,
    actionTimeout: 10_000,
    // Recording a trace for every test, to keep only the failures', cost CI about a quarter of
    // the e2e time (identity and account specs, CI=true, same load: 279 s with, 195 s without):
    // under CI a failed test is retried with its trace on.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'sequential-mail', testMatch: inSequential(true) },
    { name: 'sequential', testMatch: inSequential(false) },
    { name: 'parallel-mail', testMatch: MAIL_SPECS, testIgnore: SEQUENTIAL_SPECS },
    { name: 'parallel', testIgnore: [...SEQUENTIAL_SPECS, ...MAIL_SPECS] },
  ],
});
