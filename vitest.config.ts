import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './scripts/vitest-sequencer.ts';

// Three projects: pure contracts, the server (real PGlite/PostgreSQL, Redis, SMTP peer),
// and the web app's components under happy-dom.
export default defineConfig({
  test: {
    // One test process per core, and one more. Vitest's default (cores - 1) ran one at a time on
    // the 2-core machines CI runs on, with the other core idle: the suite was mostly module
    // loading, serial. One per core still left the cores idle a sixth of the run (a server test
    // waits on PostgreSQL, Redis, the SMTP peer and the processes it starts): the whole run on
    // PostgreSQL on a 2-core machine, 2 workers 420 s (132 core-s idle), 3 workers 343 s (60).
    maxWorkers: availableParallelism() + 1,
    // The longest files first (scripts/vitest-sequencer.ts), from a committed list of durations:
    // a fresh clone has no cache of the previous run to order by.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/global-setup.ts'],
          // Test files share a worker's loaded modules: each file builds its own app and database
          // (harness, freshDatabase), and with isolation every file re-imported the whole server,
          // which was more than half of the suite's time (443 s isolated, 250 s shared, 2 cores).
          isolate: false,
          // PGlite's WebAssembly stays on V8's baseline compiler in the test processes (the
          // servers and commands they start get the same, packages/server/test/server-bundle.ts
          // TEST_V8_ARGS says why): the wallet's files on PGlite took 75-86 CPU-s so, 88-98
          // without.
          execArgv: ['--liftoff-only'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // A whole flow of pages in happy-dom (the recovery test walks five) passes 5 s when the
        // two cores are shared with the server suites: a timeout there is load, not a fault.
        test: {
          name: 'web',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          testTimeout: 20_000,
          // Test files share a worker's process and page: isolated, every file started a process that
          // loaded happy-dom, React, Mantine and Testing Library again, most of the project's time.
          // The setup file evaluates the app's own modules afresh for each file and gives it a blank
          // page, so files still start as in a worker of their own (packages/web/src/test/setup.ts).
          isolate: false,
          setupFiles: ['packages/web/src/test/setup.ts'],
        },
        // The web app's own binding for react-i18next, as in its build (packages/web/vite.config.ts).
        resolve: { alias: [{ find: /^react-i18next$/, replacement: new URL('./packages/web/src/lib/react-i18n.tsx', import.meta.url).pathname }] },
      },
    ],
  },
});
