import { describe, expect, it } from 'vitest';

import { capCategories, MAX_BAR_CATEGORIES, type CategoryDatum } from './categories';

const many = (count: number): CategoryDatum[] =>
  Array.from({ length: count }, (_, index) => ({ label: `Learner ${index + 1}`, value: index + 1 }));

describe('capCategories', () => {
  it('keeps a short list as it is', () => {
    const data = many(3);
    expect(capCategories(data, { max: MAX_BAR_CATEGORIES, isAdditive: true })).toEqual({
      rows: data,
      others: null,
      total: 3,
      hidden: 0,
      folded: 0,
      omitted: 0,
    });
  });

  it('keeps the largest in their order and sums the rest into Others when values add up', () => {
    const capped = capCategories(many(123), { max: 30, isAdditive: true });
    expect(capped.rows).toHaveLength(30);
    expect(capped.rows.slice(0, 29).map((row) => row.value)).toEqual(
      Array.from({ length: 29 }, (_, index) => 95 + index),
    );
    const restSum = Array.from({ length: 94 }, (_, index) => index + 1).reduce((a, b) => a + b, 0);
    expect(capped.others).toEqual({ label: 'Others', value: restSum, isOthers: true, groups: 94 });
    expect(capped.rows.at(-1)).toBe(capped.others);
    expect(capped).toMatchObject({ total: 123, hidden: 94, folded: 94, omitted: 0 });
  });

  it('never sums values that do not add up: the top ones, the rest left out', () => {
    const capped = capCategories(many(40), { max: 30 });
    expect(capped.rows).toHaveLength(30);
    expect(capped.rows.some((row) => row.isOthers)).toBe(false);
    expect(capped.rows[0]?.value).toBe(11);
    expect(capped).toMatchObject({ others: null, total: 40, hidden: 10, omitted: 10 });
  });

  it('keeps an Others row the caller sent, last, and folds the overflow into it', () => {
    const data = [{ label: 'Others', value: 50, isOthers: true, groups: 12 }, ...many(9)];
    const fits = capCategories(data, { max: 10, isAdditive: true });
    expect(fits.rows.map((row) => row.label)).toEqual([...many(9).map((row) => row.label), 'Others']);
    expect(fits).toMatchObject({ total: 21, hidden: 12, omitted: 0 });

    const folded = capCategories(many(9), {
      max: 8,
      isAdditive: true,
      others: { label: 'Other values', value: 100, groups: 5 },
    });
    expect(folded.rows).toHaveLength(8);
    expect(folded.others).toEqual({ label: 'Other values', value: 100 + 1 + 2, isOthers: true, groups: 7 });
    expect(folded).toMatchObject({ total: 14, hidden: 7 });
  });

  it('does not count groups an incoming Others does not count', () => {
    const data = [...many(10), { label: 'Other', value: 7, isOthers: true }];
    const fits = capCategories(data, { max: 30, isAdditive: true });
    expect(fits).toMatchObject({ total: null, hidden: null, folded: 0 });
    expect(fits.others).toEqual({ label: 'Other', value: 7, isOthers: true });
    const folded = capCategories(data, { max: 5, isAdditive: true });
    expect(folded).toMatchObject({ total: null, hidden: null, folded: 6 });
    expect(folded.others?.value).toBe(7 + 1 + 2 + 3 + 4 + 5 + 6);
  });
});
