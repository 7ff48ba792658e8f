import { describe, expect, it } from 'vitest';

import { correctRate, formatVariableValue, learnerDisplayName } from './format-value';

describe('formatVariableValue', () => {
  it('formats numbers with grouping and at most two decimals', () => {
    expect(formatVariableValue('number', '1234.567')).toBe('1,234.57');
    expect(formatVariableValue('number', '85')).toBe('85');
  });

  it('shows booleans as Yes/No and anything else as received', () => {
    expect(formatVariableValue('boolean', 'true')).toBe('Yes');
    expect(formatVariableValue('boolean', 'FALSE')).toBe('No');
    expect(formatVariableValue('boolean', 'maybe')).toBe('maybe');
  });

  it('keeps a value that does not parse as its type', () => {
    expect(formatVariableValue('number', 'n/a')).toBe('n/a');
    expect(formatVariableValue('number', '')).toBe('');
    expect(formatVariableValue('date', 'someday')).toBe('someday');
  });

  it('formats dates and shows a dash for null', () => {
    expect(formatVariableValue('date', '2026-01-05T12:00:00.000Z')).toMatch(/Jan 5, 2026/);
    expect(formatVariableValue('text', null)).toBe('—');
    expect(formatVariableValue('text', '  spaced ')).toBe('  spaced ');
  });
});

describe('learnerDisplayName and correctRate', () => {
  it('falls back to the e-mail when there is no name', () => {
    expect(learnerDisplayName({ name: 'Anna', email: 'a@x.test' })).toBe('Anna');
    expect(learnerDisplayName({ name: null, email: 'a@x.test' })).toBe('a@x.test');
    expect(learnerDisplayName({ name: '  ', email: 'a@x.test' })).toBe('a@x.test');
  });

  it('has no rate without answers', () => {
    expect(correctRate({ responses: 0, correctResponses: 0 })).toBeNull();
    expect(correctRate({ responses: 4, correctResponses: 3 })).toBe(0.75);
  });
});
