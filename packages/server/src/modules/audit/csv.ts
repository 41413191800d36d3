/**
 * CSV (RFC 4180): fields separated by commas, records by CRLF, a field quoted when it holds a
 * comma, a quote, CR or LF, its quotes doubled. A cell a spreadsheet would run as a formula
 * (starting with = + - @, TAB or CR) gets a leading apostrophe first (OWASP's CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRecord = (values: ReadonlyArray<string | number | boolean | null | undefined>): string => `${values.map(csvCell).join(',')}\r\n`;
