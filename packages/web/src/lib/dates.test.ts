import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatMonth } from './dates';

describe('dates', () => {
  it('writes a day in one pattern per language, whatever the locale would', () => {
    expect(formatDay('2026-12-10T00:00:00Z', 'en')).toBe('12/10/2026');
    expect(formatDay('2026-12-10T00:00:00Z', 'vi')).toBe('10/12/2026');
    // Never the locale's medium style ("Dec 10, 2026", "10 thg 12, 2026").
    expect(formatDay('2026-12-10T00:00:00Z', 'en')).not.toMatch(/[A-Za-z]/);
  });

  it('keeps a UTC day the same day late in the evening west of Greenwich', () => {
    // 00:30 UTC on the 10th is the 9th in New York; a payout day is the 10th everywhere.
    expect(formatDay('2026-12-10T00:30:00Z', 'en')).toBe('12/10/2026');
    expect(formatDate('2026-12-10T00:30:00Z', 'en', { timeZone: 'America/New_York' })).toBe('12/09/2026');
  });

  it('shares the date-and-time pattern: 24-hour in Vietnamese, 12-hour in English', () => {
    expect(formatDateTime('2026-03-07T14:05:00Z', 'vi', { timeZone: 'UTC' })).toBe('07/03/2026 14:05');
    expect(formatDateTime('2026-03-07T14:05:00Z', 'en', { timeZone: 'UTC' })).toBe('03/07/2026 2:05 PM');
  });

  it('names a month in words in each language, and nothing for a value that is no month', () => {
    expect(formatMonth('2026-12', 'en')).toBe('December 2026');
    expect(formatMonth('2026-01', 'vi')).toBe('tháng 1 năm 2026');
    expect(formatMonth('2026-13', 'en')).toBe('');
    expect(formatMonth('December', 'vi')).toBe('');
  });

  it('answers nothing for an unreadable date rather than "Invalid Date"', () => {
    expect(formatDay('not a date', 'en')).toBe('');
  });
});
