import { VARIABLE_COUNT_DEFINITIONS, type VariableSummary } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import { formatVariableValue, learnerLabel } from './format-value';
import { summaryStats } from './variable-report-view';

const base: VariableSummary = {
  dataType: 'number',
  learners: 1200,
  values: 1234,
  count: 1234,
  definitions: VARIABLE_COUNT_DEFINITIONS,
  distinct: 40,
  mean: 72.456,
  median: 75,
  min: 10,
  max: 100,
  stddev: 9.5743,
  topValues: [],
  trueCount: null,
  falseCount: null,
  trueRate: null,
  earliest: null,
  latest: null,
};

const flat = (summary: VariableSummary) =>
  summaryStats(summary).map((stat) => [stat.label, stat.value as string]);

describe('summaryStats', () => {
  it('gives numbers their spread', () => {
    expect(flat(base)).toEqual([
      ['Learners', '1,200'],
      ['Values', '1,234'],
      ['Distinct values', '40'],
      ['Mean', '72.46'],
      ['Median', '75'],
      ['Minimum', '10'],
      ['Maximum', '100'],
      ['Std deviation', '9.57'],
    ]);
  });

  it('gives booleans their true rate and text its top values', () => {
    expect(flat({ ...base, dataType: 'boolean', trueCount: 3, falseCount: 1, trueRate: 0.75 })).toEqual([
      ['Learners', '1,200'],
      ['Values', '1,234'],
      ['Distinct values', '40'],
      ['True', '3'],
      ['False', '1'],
      ['True rate', '75%'],
    ]);
    expect(
      flat({
        ...base,
        dataType: 'text',
        topValues: [
          { value: 'North', count: 9 },
          { value: 'South', count: 4 },
        ],
      }).slice(3),
    ).toEqual([
      ['Top 1: North', '9'],
      ['Top 2: South', '4'],
    ]);
  });
});

describe('formatVariableValue', () => {
  it('reads each type the way a person does, and falls back to the raw text', () => {
    expect(formatVariableValue('number', { value: '1234.5', valueNumber: 1234.5 })).toBe('1,234.5');
    expect(formatVariableValue('number', { value: 'n/a', valueNumber: null })).toBe('n/a');
    expect(formatVariableValue('boolean', { value: 'yes', valueBoolean: true })).toBe('True');
    expect(formatVariableValue('text', { value: null })).toBe('—');
    expect(learnerLabel('  ')).toBe('Unnamed learner');
  });
});
