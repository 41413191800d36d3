import type { BenchContext } from './context';

/** One line of the bench table. */
export interface Row {
  metric: string;
  value: string;
  /** Budget or comparison, e.g. "≤ 150 KB". */
  target?: string;
  status?: 'PASS' | 'FAIL' | 'INFO';
  note?: string;
}

/**
 * A bench section: bench/sections/<name>.ts exports one of these and bench/sections/index.ts
 * lists it. Sections share servers and the browser through the context and must not
 * leave anything running (the context closes what it started).
 */
export interface BenchSection {
  name: string;
  title: string;
  run(context: BenchContext): Promise<Row[]>;
}
