import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];
const MODULES = 'packages/server/src/modules';
const modules = readdirSync(MODULES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Boundaries a machine checks (import-x/no-restricted-paths). Each zone forbids `target` to
 * import `from` (paths from the repository root), `except` the paths (relative to `from`)
 * that are allowed. Add a zone here for a new boundary, e.g. the web app's features.
 */
const boundaries = {
  /** Contracts are the bottom of the house: they import nothing of ours. */
  contracts: [{ target: 'packages/contracts/src', from: ['packages/server', 'packages/web', 'e2e', 'bench', 'scripts'], message: 'contracts import nothing of ours.' }],
  /**
   * A server module reaches another only through its public index.ts, or its tables.ts: a
   * foreign key needs the other table's column itself, and tables.ts only declares tables (every
   * one is in db/schema.ts anyway). Reaching it through db/schema.ts instead would be a cycle.
   */
  serverModules: modules.map((module) => ({
    target: `${MODULES}/${module}`,
    from: MODULES,
    except: [`./${module}`, ...modules.filter((other) => other !== module).flatMap((other) => [`./${other}/index.ts`, `./${other}/tables.ts`])],
    message: 'import another module through its index.ts.',
  })),
  /** The composition root and the benchmarks use modules' public faces too. */
  serverRoot: [
    {
      target: ['packages/server/src/app.ts', 'packages/server/src/main.ts', 'bench'],
      from: MODULES,
      except: modules.map((module) => `./${module}/index.ts`),
      message: 'import a module through its index.ts.',
    },
  ],
  /** Platform is what modules stand on: it imports none of them. */
  platform: [{ target: 'packages/server/src/platform', from: MODULES, message: 'platform imports no module.' }],
  /** Test utilities live in packages/server/test, and production code never needs them. */
  testUtilities: [{ target: 'packages/server/src', from: 'packages/server/test', message: 'production code does not import test utilities.' }],
};
import { webBoundaries } from './packages/web/eslint.boundaries.js';

export default tseslint.config(
  { ignores: ['**/node_modules', '**/dist', 'data', 'test-results', 'playwright-report', '.cache', 'packages/server/src/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  webBoundaries,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['scripts/**/*.mjs', '.ci/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}', 'packages/server/test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['packages/*/tsconfig.json', 'tsconfig.json'], noWarnOnMultipleProjects: true })] },
  },
  {
    files: ['packages/contracts/src/**/*.ts', 'packages/server/src/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...boundaries.contracts, ...boundaries.serverModules, ...boundaries.serverRoot] }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    // The server is type-checked with the e2e and bench code (tsconfig.json), whose DOM types
    // would let a browser global through unnoticed: the server has none.
    files: ['packages/server/src/**/*.ts', 'packages/server/test/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', ...['window', 'document', 'localStorage', 'sessionStorage', 'HTMLElement', 'Element', 'location'].map((name) => ({ name, message: 'the server runs on Node: no browser globals' }))],
    },
  },
  {
    // Production code only: a platform test may render a module's real mail, and tests use the utilities.
    files: ['packages/server/src/**/*.ts'],
    ignores: TESTS,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...boundaries.contracts, ...boundaries.serverModules, ...boundaries.serverRoot, ...boundaries.platform, ...boundaries.testUtilities] },
      ],
    },
  },
);
