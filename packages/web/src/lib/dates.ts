import { formatDate, formatDateTime, type DateInput, type Language } from '@portal/contracts';

/**
 * Dates on the pages, one format per language (the spec's constants): DD/MM/YYYY in Vietnamese,
 * MM/DD/YYYY in English, never a locale's own ("Dec 10, 2026" beside "12/12/2026"). The
 * patterns are contracts' formatDate and formatDateTime, which the server's mail and exports
 * share; what is here are the two kinds of date those do not cover by themselves.
 */
export { formatDate, formatDateTime };

/**
 * A calendar day the server keeps in UTC (a payout day, a reward's date): the same day for
 * every visitor, whatever their time zone ("2026-12-10" is 12/10/2026 in New York too).
 */
export function formatDay(input: DateInput, language: Language): string {
  return formatDate(input, language, { timeZone: 'UTC' });
}

/**
 * A month such as a statement's period (`2026-12`): "December 2026", "tháng 12 năm 2026".
 * A month has no day to put in the date pattern, so it is named in words; empty for a
 * value that is not YYYY-MM.
 */
export function formatMonth(period: string, language: Language): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) return '';
  const [year, month] = period.split('-');
  if (language === 'vi') return `tháng ${Number(month)} năm ${year}`;
  return `${new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(new Date(`${period}-01T00:00:00Z`))} ${year}`;
}
