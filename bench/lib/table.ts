import type { Row } from './types';

export interface SectionResult {
  /** The section's name on the command line (`npm run bench -- <name>`). */
  name?: string;
  title: string;
  seconds: number;
  rows: Row[];
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - [...text].length));
}

/** Prints all sections as one aligned table. */
export function printTable(results: SectionResult[]): void {
  const headers = ['section', 'metric', 'value', 'target', 'status'];
  const lines = results.flatMap((result) =>
    result.rows.map((row, index) => [index === 0 ? result.title : '', row.metric, row.value, row.target ?? '', row.status ?? '']),
  );
  const widths = headers.map((header, column) => Math.max([...header].length, ...lines.map((line) => [...line[column]!].length)));
  const rule = widths.map((width) => '─'.repeat(width + 2)).join('┼');
  const format = (cells: string[]) => cells.map((cell, column) => ` ${pad(cell, widths[column]!)} `).join('│');
  console.log(format(headers));
  console.log(rule);
  let printed = 0;
  results.forEach((result, index) => {
    if (index > 0) console.log(rule);
    for (let i = 0; i < result.rows.length; i++) console.log(format(lines[printed++]!));
  });
  const notes = results.flatMap((result) => result.rows.filter((row) => row.note).map((row) => `${row.metric}: ${row.note}`));
  if (notes.length) {
    console.log('');
    for (const note of notes) console.log(`  * ${note}`);
  }
}
