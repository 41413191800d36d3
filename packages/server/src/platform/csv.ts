import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula (OWASP's CSV injection): = + - @ or their
 * full-width forms, also behind leading spaces, line breaks or quotes (some spreadsheets trim
 * them before reading a formula), and a TAB or CR first.
 */
const RUNS_AS_FORMULA = /^[\s"']*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/** The cell as text: a leading apostrophe (shown by no spreadsheet) makes a would-be formula plain text. */
export function neutraliseFormula(text: string): string {
  return RUNS_AS_FORMULA.test(text) && !text.startsWith("'") ? `'${text}` : text;
}

type Cell = string | number | boolean | null | undefined;

/**
 * One CSV record (RFC 4180: commas, CRLF, a field quoted when it holds a comma, a quote or a
 * line break, its quotes doubled), written by csv-stringify, every text cell neutralised
 * first. A bare LF is quoted too: csv-stringify quotes only the whole record delimiter.
 */
export function csvRecord(values: readonly Cell[]): string {
  return stringify([values.map((value) => (value === null || value === undefined ? '' : neutraliseFormula(String(value))))], {
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
}

/** One cell as it stands in a record (without the record's CRLF). */
export const csvCell = (value: Cell): string => csvRecord([value]).slice(0, -2);
