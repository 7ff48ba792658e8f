import { describe, expect, it } from 'vitest';

import { niceTicks, truncateLabel, withUnit } from './chart-theme';

describe('niceTicks', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten from 0 to just past the data', () => {
    expect(niceTicks(0, 203, 4)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(niceTicks(0, 100, 4)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(0, 0.7, 4)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(0, 91, 5, true)).toEqual([0, 20, 40, 60, 80, 100]);
  });

  it('keeps counts on whole steps', () => {
    expect(niceTicks(0, 3, 4, true)).toEqual([0, 1, 2, 3]);
    for (const tick of niceTicks(0, 7, 5, true) ?? []) expect(Number.isInteger(tick)).toBe(true);
  });

  it('leaves data below zero to recharts, and gives an empty axis a scale', () => {
    expect(niceTicks(-5, 10)).toBeUndefined();
    expect(niceTicks(0, 0)).toEqual([0, 1]);
  });
});

describe('labels', () => {
  it('cuts with an ellipsis only when the text is longer than the room', () => {
    expect(truncateLabel('Operations', 12)).toBe('Operations');
    expect(truncateLabel('Listen without interrupting', 12)).toBe('Listen with…');
  });

  it('writes an axis title with its unit', () => {
    expect(withUnit('Correct rate', '%')).toBe('Correct rate (%)');
    expect(withUnit('Answers', undefined)).toBe('Answers');
  });
});
