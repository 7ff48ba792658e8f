import { describe, expect, it } from 'vitest';

import {
  formatCapturedValue,
  formatDate,
  formatDateTimeWithSeconds,
  formatNumber,
  formatPercent,
  formatRelative,
} from './format';

describe('format', () => {
  it('formats numbers and missing values', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(null)).toBe('—');
    expect(formatPercent(0.456)).toBe('46%');
    expect(formatPercent(null)).toBe('—');
  });

  it('formats dates and rejects garbage', () => {
    expect(formatDate('2026-03-04T12:00:00.000Z')).toMatch(/Mar [34], 2026/);
    expect(formatDate('not a date')).toBe('—');
    expect(formatDateTimeWithSeconds('2026-03-04T12:00:07.000Z')).toMatch(
      /^Mar [34], 2026, \d{1,2}:\d{2}:07\s[AP]M$/,
    );
    expect(formatDateTimeWithSeconds(null)).toBe('—');
  });

  it('says how long ago', () => {
    const now = new Date('2026-06-10T12:00:00.000Z');
    expect(formatRelative('2026-06-10T11:59:30.000Z', now)).toBe('just now');
    expect(formatRelative('2026-06-10T09:00:00.000Z', now)).toBe('3 hours ago');
    expect(formatRelative('2026-06-09T12:00:00.000Z', now)).toBe('yesterday');
  });
});

describe('formatCapturedValue', () => {
  it('formats each type of value an agent captures', () => {
    expect(formatCapturedValue(true, 'boolean')).toBe('Yes');
    expect(formatCapturedValue(false)).toBe('No');
    expect(formatCapturedValue(1234.567, 'number')).toBe('1,234.57');
    expect(formatCapturedValue('Pro', 'choice')).toBe('Pro');
    expect(formatCapturedValue('  as typed ', 'text')).toBe('  as typed ');
  });

  it('reads a date variable’s day in local time, and keeps any other text as it is', () => {
    expect(formatCapturedValue('2026-12-31', 'date')).toBe('Dec 31, 2026');
    expect(formatCapturedValue('2026-03-01', 'date')).toBe('Mar 1, 2026');
    expect(formatCapturedValue('next spring', 'date')).toBe('next spring');
    expect(formatCapturedValue('2026-03-01', 'text')).toBe('2026-03-01');
  });

  it('shows a dash for nothing captured', () => {
    expect(formatCapturedValue(null, 'text')).toBe('—');
    expect(formatCapturedValue(undefined)).toBe('—');
    expect(formatCapturedValue('', 'text')).toBe('—');
  });
});
