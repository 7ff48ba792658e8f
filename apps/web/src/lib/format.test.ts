import { describe, expect, it } from 'vitest';

import { formatDate, formatNumber, formatPercent, formatRelative } from './format';

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
  });

  it('says how long ago', () => {
    const now = new Date('2026-06-10T12:00:00.000Z');
    expect(formatRelative('2026-06-10T11:59:30.000Z', now)).toBe('just now');
    expect(formatRelative('2026-06-10T09:00:00.000Z', now)).toBe('3 hours ago');
    expect(formatRelative('2026-06-09T12:00:00.000Z', now)).toBe('yesterday');
  });
});
