import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney, formatPercent, weekStartsOn } from './format';

// Intl inserts a no-break space between number and symbol in some locales; compare on plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney', () => {
  it('shows VND without decimals, rounding half away from zero', () => {
    expect(plain(formatMoney(1_234_567, 'VND', 'vi'))).toBe('1.234.567 ₫');
    expect(formatMoney(1_234_567, 'VND', 'en')).toBe('₫1,234,567');
    expect(formatMoney(1234.5, 'VND', 'en')).toBe('₫1,235');
    expect(formatMoney(-1234.5, 'VND', 'en')).toBe('-₫1,235');
  });

  it('shows USD with two decimals, or none for whole amounts', () => {
    expect(formatMoney(12, 'USD', 'en')).toBe('$12');
    expect(formatMoney(12.5, 'USD', 'en')).toBe('$12.50');
    expect(formatMoney(1.29, 'USD', 'en')).toBe('$1.29');
    expect(formatMoney(1.005, 'USD', 'en')).toBe('$1.01');
    expect(formatMoney(1.999, 'USD', 'en')).toBe('$2');
    expect(plain(formatMoney(1234.5, 'USD', 'vi'))).toBe('1.234,50 US$');
  });

  it('shows WHC with up to eight decimals and its code', () => {
    expect(formatMoney(1.5, 'WHC', 'en')).toBe('1.5 WHC');
    expect(formatMoney('0.12345678', 'WHC', 'en')).toBe('0.12345678 WHC');
    expect(formatMoney('0.123456785', 'WHC', 'en')).toBe('0.12345679 WHC');
    expect(formatMoney({ minor: 1n }, 'WHC', 'vi')).toBe('0,00000001 WHC');
    expect(formatMoney({ minor: 150_000_000n }, 'WHC', 'vi')).toBe('1,5 WHC');
  });

  it('never shows a signed zero', () => {
    expect(formatMoney(0, 'USD', 'en')).toBe('$0');
    expect(formatMoney(-0, 'VND', 'en')).toBe('₫0');
    expect(formatMoney(-0.4, 'VND', 'en')).toBe('₫0');
    expect(formatMoney('-0.000000004', 'WHC', 'en')).toBe('0 WHC');
  });

  it('formats negatives', () => {
    expect(formatMoney(-12.5, 'USD', 'en')).toBe('-$12.50');
    expect(formatMoney({ minor: -250 }, 'USD', 'en')).toBe('-$2.50');
    expect(formatMoney({ minor: '-100000001' }, 'WHC', 'en')).toBe('-1.00000001 WHC');
  });

  it('keeps full precision for huge amounts given as minor units or strings', () => {
    expect(formatMoney({ minor: 123456789012345678901234567n }, 'WHC', 'en')).toBe('1,234,567,890,123,456,789.01234567 WHC');
    expect(formatMoney('98765432109876543210', 'VND', 'en')).toBe('₫98,765,432,109,876,543,210');
    expect(formatMoney({ minor: '900719925474099312' }, 'USD', 'en')).toBe('$9,007,199,254,740,993.12');
  });

  it('rejects amounts that are not numbers', () => {
    expect(() => formatMoney(Number.NaN, 'USD', 'en')).toThrow(RangeError);
    expect(() => formatMoney(Number.POSITIVE_INFINITY, 'USD', 'en')).toThrow(RangeError);
    expect(() => formatMoney('12,5', 'USD', 'en')).toThrow(RangeError);
    expect(() => formatMoney({ minor: 1.5 }, 'USD', 'en')).toThrow(RangeError);
    expect(() => formatMoney({ minor: '1.5' }, 'USD', 'en')).toThrow(RangeError);
  });
});

describe('formatPercent', () => {
  it('drops decimals for multiples of ten only', () => {
    expect(formatPercent(10, 'en')).toBe('10%');
    expect(formatPercent(0, 'en')).toBe('0%');
    expect(formatPercent(100, 'en')).toBe('100%');
    expect(formatPercent(-20, 'en')).toBe('-20%');
    expect(formatPercent(12.5, 'en')).toBe('12.50%');
    expect(formatPercent(7, 'en')).toBe('7.00%');
    expect(formatPercent(12.5, 'vi')).toBe('12,50%');
  });

  it('rounds to two decimals before deciding', () => {
    expect(formatPercent(9.999, 'en')).toBe('10%');
    expect(formatPercent(12.345, 'en')).toBe('12.35%');
    expect(formatPercent(-0.001, 'en')).toBe('0%');
    expect(formatPercent(1234.5, 'en')).toBe('1,234.50%');
  });

  it('rejects non-finite values', () => {
    expect(() => formatPercent(Number.NaN, 'en')).toThrow(RangeError);
  });
});

describe('dates', () => {
  const afternoon = '2025-03-07T14:05:00Z';
  const utc = { timeZone: 'UTC' };

  it('orders the date by language', () => {
    expect(formatDate(afternoon, 'vi', utc)).toBe('07/03/2025');
    expect(formatDate(afternoon, 'en', utc)).toBe('03/07/2025');
  });

  it('uses a 24-hour clock in Vietnamese and a 12-hour clock in English', () => {
    expect(formatDateTime(afternoon, 'vi', utc)).toBe('07/03/2025 14:05');
    expect(formatDateTime(afternoon, 'en', utc)).toBe('03/07/2025 2:05 PM');
    expect(formatDateTime('2025-03-07T00:30:00Z', 'vi', utc)).toBe('07/03/2025 00:30');
    expect(formatDateTime('2025-03-07T00:30:00Z', 'en', utc)).toBe('03/07/2025 12:30 AM');
  });

  it('applies the time zone', () => {
    expect(formatDateTime(afternoon, 'vi', { timeZone: 'Asia/Ho_Chi_Minh' })).toBe('07/03/2025 21:05');
    expect(formatDate('2025-03-07T20:00:00Z', 'vi', { timeZone: 'Asia/Ho_Chi_Minh' })).toBe('08/03/2025');
  });

  it('accepts dates and epoch milliseconds, and returns empty text for invalid input', () => {
    expect(formatDate(new Date(Date.UTC(2024, 1, 29)), 'en', utc)).toBe('02/29/2024');
    expect(formatDate(Date.UTC(2024, 11, 31), 'vi', utc)).toBe('31/12/2024');
    expect(formatDate('not a date', 'en')).toBe('');
    expect(formatDateTime(Number.NaN, 'vi')).toBe('');
  });

  it('keeps each language, clock and zone apart when formats of several are mixed (formatters are kept between calls)', () => {
    const saigon = { timeZone: 'Asia/Ho_Chi_Minh' };
    for (let round = 0; round < 3; round++) {
      expect(formatDateTime(afternoon, 'en', utc)).toBe('03/07/2025 2:05 PM');
      expect(formatDateTime(afternoon, 'vi', saigon)).toBe('07/03/2025 21:05');
      expect(formatDate(afternoon, 'en', saigon)).toBe('03/07/2025');
      expect(formatDateTime(afternoon, 'vi', utc)).toBe('07/03/2025 14:05');
      expect(formatDate('2025-03-07T20:00:00Z', 'vi', saigon)).toBe('08/03/2025');
      expect(formatDate('2025-03-07T20:00:00Z', 'vi', utc)).toBe('07/03/2025');
      expect(formatMoney(1234.5, 'USD', 'en')).toBe('$1,234.50');
      expect(formatMoney(1234.5, 'USD', 'vi')).toBe(new Intl.NumberFormat('vi-VN', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(1234.5));
      expect(formatPercent(12.5, 'en')).toBe('12.50%');
      expect(formatPercent(10, 'en')).toBe('10%');
    }
    expect(() => formatDate(afternoon, 'en', { timeZone: 'Not/AZone' })).toThrow(RangeError);
  });

  it('starts the week on Monday for Vietnamese', () => {
    expect(weekStartsOn('vi')).toBe(1);
    expect(weekStartsOn('en')).toBe(0);
  });
});
