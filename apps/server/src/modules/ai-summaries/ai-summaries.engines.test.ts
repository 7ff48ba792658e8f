import {
  AI_SUMMARY_COUNT_DEFINITIONS,
  binLabel,
  type AiSummaryStatistics,
  type SummaryTrend,
} from '@courselens/contracts';
import { describe, expect, it } from 'vitest';
import {
  buildLlmPrompt,
  formatDay,
  normalizeLlmText,
  trendDirection,
  writeBuiltinSummary,
} from './ai-summaries.engines';

/** Twelve weeks ending with `points`; the last one is the current (partial) week when `isLastPartial`. */
function weeks(
  points: [values: number, mean: number | null][],
  isLastPartial = false,
): SummaryTrend['weeks'] {
  const padded = [...Array<[number, number | null]>(12 - points.length).fill([0, null]), ...points];
  return padded.map(([values, mean], index) => ({
    weekStart: new Date(Date.UTC(2026, 0, 5 + 7 * index)).toISOString(),
    values,
    mean,
    isPartial: isLastPartial && index === padded.length - 1,
  }));
}

const bin = (from: number, to: number, count: number) => ({ from, to, label: binLabel({ from, to }), count });

function statistics(overrides: Partial<AiSummaryStatistics> = {}): AiSummaryStatistics {
  const trendWeeks = weeks([
    [4, 60],
    [0, null],
    [6, 72],
  ]);
  return {
    subject: {
      variableType: 'course',
      variableId: 'v1',
      variableName: 'final_score',
      variableTitle: 'Final score',
      description: null,
      dataType: 'number',
      courseId: 'c1',
      courseTitle: 'Workplace Safety',
    },
    learners: 6,
    values: 6,
    recordedValues: 10,
    definitions: { ...AI_SUMMARY_COUNT_DEFINITIONS },
    distinctValues: 6,
    firstRecordedAt: '2026-01-06T10:00:00.000Z',
    lastRecordedAt: '2026-03-21T10:00:00.000Z',
    numeric: { mean: 68.33, median: 77.5, standardDeviation: 26.87, min: 10, max: 90, q1: 71.25, q3: 83.75 },
    distribution: {
      kind: 'histogram',
      bins: [bin(10, 50, 1), bin(50, 90, 5)],
    },
    trend: { metric: 'mean', weeks: trendWeeks, ...trendDirection('mean', trendWeeks) },
    outliers: { lowerFence: 52.5, upperFence: 102.5, count: 1, learners: [{ name: 'Eve', value: '10' }] },
    topLearners: [
      { name: 'Cyd', value: '90' },
      { name: 'Dan', value: '85' },
      { name: 'Ann', value: '80' },
    ],
    bottomLearners: [
      { name: 'Eve', value: '10' },
      { name: 'Bob', value: '70' },
      { name: 'An unnamed learner', value: '75' },
    ],
    otherCourses: [{ courseId: 'c2', courseTitle: 'Sales basics', learners: 2, mean: 60 }],
    computedAt: '2026-03-25T12:00:00.000Z',
    ...overrides,
  };
}

describe('the built-in engine', () => {
  it('describes numbers: centre, spread, skew, crowded range, outliers, ranking, trend and other courses', () => {
    const text = writeBuiltinSummary(statistics());
    expect(text).toBe(
      [
        "“Final score” (final_score) in Workplace Safety: 6 learners have a value, from 10 values recorded between 6 Jan 2026 and 21 Mar 2026. Figures below use each learner's latest value; the trend uses every value recorded.",
        'The average latest value is 68.33 and the median 77.5 (half of the learners are at or below it). Values range from 10 to 90; the middle half lies between 71.25 and 83.75, and the standard deviation is 26.87. The average sits below the median: a few low values pull it down.',
        'The most crowded range is 50–90, with 5 learners (83%).',
        '1 learner is unusually far from the rest (below 52.5): Eve (10).',
        '- Highest: Cyd (90), Dan (85) and Ann (80)\n- Lowest: Eve (10), Bob (70) and An unnamed learner (75)',
        'In the last 12 weeks, 10 values were recorded, in 2 weeks. The weekly average rose from 60 to 72.',
        'The same variable exists in 1 other course: Sales basics (mean 60, 2 learners). Here the mean is 68.33, above the 60 of those courses taken together.',
      ].join('\n\n'),
    );
  });

  it('is deterministic', () => {
    expect(writeBuiltinSummary(statistics())).toBe(writeBuiltinSummary(statistics()));
  });

  it('says there is nothing to summarize for an empty variable', () => {
    const text = writeBuiltinSummary(
      statistics({
        learners: 0,
        values: 0,
        recordedValues: 0,
        distinctValues: 0,
        numeric: null,
        distribution: null,
        outliers: null,
        topLearners: [],
        bottomLearners: [],
        trend: { metric: 'mean', weeks: weeks([]), direction: 'not-enough-data', from: null, to: null },
      }),
    );
    expect(text).toBe(
      '“Final score” (final_score) in Workplace Safety: no learner has a value yet, so there is nothing to summarize.\n\n' +
        'Once the course records values for this variable, regenerate the summary to read about them.',
    );
  });

  it('treats a single learner as a snapshot, without spread, outliers or ranking', () => {
    const single = weeks([[1, 42]]);
    const text = writeBuiltinSummary(
      statistics({
        learners: 1,
        values: 1,
        recordedValues: 1,
        distinctValues: 1,
        firstRecordedAt: '2026-03-20T10:00:00.000Z',
        lastRecordedAt: '2026-03-20T10:00:00.000Z',
        numeric: { mean: 42, median: 42, standardDeviation: 0, min: 42, max: 42, q1: 42, q3: 42 },
        distribution: { kind: 'histogram', bins: [bin(42, 42, 1)] },
        outliers: { lowerFence: 42, upperFence: 42, count: 0, learners: [] },
        topLearners: [{ name: 'Ann', value: '42' }],
        bottomLearners: [],
        trend: { metric: 'mean', weeks: single, ...trendDirection('mean', single) },
        otherCourses: [],
      }),
    );
    expect(text).toContain('1 learner has a value, from 1 value recorded on 20 Mar 2026.');
    expect(text).toContain('With a single learner this describes one person, not a group');
    expect(text).toContain('The value is 42.');
    expect(text).toContain(
      'In the last 12 weeks, 1 value was recorded, in 1 week. That is too few weeks to tell a direction.',
    );
    expect(text).not.toContain('standard deviation');
    expect(text).not.toContain('Highest');
    expect(text).not.toContain('unusually');
    expect(text).not.toContain('other course');
  });

  it('lists the most common text values, or calls unique answers free text', () => {
    const subject = {
      ...statistics().subject,
      dataType: 'text' as const,
      variableTitle: null,
      variableName: 'department',
    };
    const common = writeBuiltinSummary(
      statistics({
        subject,
        learners: 5,
        distinctValues: 3,
        numeric: null,
        outliers: null,
        topLearners: [],
        bottomLearners: [],
        otherCourses: [],
        distribution: {
          kind: 'top-values',
          values: [
            { value: 'Sales', count: 3, share: 0.6 },
            { value: 'Ops', count: 1, share: 0.2 },
          ],
          otherCount: 1,
        },
      }),
    );
    expect(common).toContain('“department” in Workplace Safety: 5 learners have a value');
    expect(common).toContain(
      'There are 3 distinct values. The most common:\n\n- “Sales”: 3 learners (60%)\n- “Ops”: 1 learner (20%)\n- other values: 1 learner',
    );
    expect(common).not.toContain('Highest');

    const free = writeBuiltinSummary(
      statistics({
        subject,
        learners: 8,
        distinctValues: 8,
        numeric: null,
        outliers: null,
        topLearners: [],
        bottomLearners: [],
        distribution: {
          kind: 'top-values',
          values: [1, 2, 3, 4, 5].map((n) => ({ value: `answer ${n}`, count: 1, share: 1 / 8 })),
          otherCount: 3,
        },
      }),
    );
    expect(free).toContain("Every learner's latest value is different (8 distinct values)");
  });

  it('names at most three outliers, counts the rest, and says on which sides they lie', () => {
    const text = writeBuiltinSummary(
      statistics({
        numeric: { mean: 50, median: 50, standardDeviation: 30, min: 1, max: 140, q1: 40, q3: 60 },
        outliers: {
          lowerFence: 10,
          upperFence: 90,
          count: 5,
          learners: [
            { name: 'Ann', value: '140' },
            { name: 'Bob', value: '1' },
            { name: 'Cyd', value: '130' },
          ],
        },
      }),
    );
    expect(text).toContain(
      '5 learners are unusually far from the rest (below 10 or above 90): Ann (140), Bob (1), Cyd (130) and 2 others.',
    );
  });

  it('gives the yes rate of booleans and notes unreadable values', () => {
    const trendWeeks = weeks([
      [4, 0.5],
      [4, 0.75],
    ]);
    const text = writeBuiltinSummary(
      statistics({
        subject: {
          ...statistics().subject,
          dataType: 'boolean',
          variableName: 'passed',
          variableTitle: 'Passed',
        },
        learners: 5,
        distinctValues: 3,
        numeric: null,
        outliers: null,
        topLearners: [],
        bottomLearners: [],
        distribution: { kind: 'boolean', trueCount: 3, falseCount: 1, trueRate: 0.75 },
        trend: { metric: 'true-rate', weeks: trendWeeks, ...trendDirection('true-rate', trendWeeks) },
        otherCourses: [{ courseId: 'c2', courseTitle: 'Sales basics', learners: 4, mean: 0.5 }],
      }),
    );
    expect(text).toContain(
      '3 of 4 learners (75%) have “yes” as their latest value and 1 has “no”. 1 other value could not be read as yes or no.',
    );
    expect(text).toContain('The weekly share of “yes” rose from 50% to 75%.');
    expect(text).toContain(
      'Sales basics (50% yes, 4 learners). Here the share of “yes” is 75%, above the 50% of those courses taken together.',
    );
  });

  it('gives the range of dates and ranks by the most recent', () => {
    const text = writeBuiltinSummary(
      statistics({
        subject: {
          ...statistics().subject,
          dataType: 'date',
          variableName: 'start_date',
          variableTitle: 'Start date',
        },
        learners: 3,
        distinctValues: 3,
        numeric: null,
        outliers: null,
        distribution: {
          kind: 'date-range',
          earliest: '2026-01-01T00:00:00.000Z',
          median: '2026-01-11T00:00:00.000Z',
          latest: '2026-01-31T00:00:00.000Z',
          spanDays: 30,
        },
        topLearners: [{ name: 'Cyd', value: '2026-01-31' }],
        bottomLearners: [{ name: 'Ann', value: '2026-01-01' }],
        otherCourses: [{ courseId: 'c2', courseTitle: 'Sales basics', learners: 4, mean: null }],
      }),
    );
    expect(text).toContain(
      'The dates run from 1 Jan 2026 to 31 Jan 2026 (30 days); the median date is 11 Jan 2026.',
    );
    expect(text).toContain('- Most recent: Cyd (31 Jan 2026)\n- Earliest: Ann (1 Jan 2026)');
    expect(text).toContain('The same variable exists in 1 other course: Sales basics (4 learners).');
    expect(text).not.toContain('Here the');
  });

  it('names a range by the label of one of the chart’s bins', () => {
    const bins = [bin(0.1, 0.2, 1), bin(0.2, 0.3, 4), bin(0.3, 0.4, 1)];
    const text = writeBuiltinSummary(statistics({ distribution: { kind: 'histogram', bins } }));
    expect(text).toContain('The most crowded range is 0.2–0.3, with 4 learners (67%).');
  });

  it('leaves the lowest line out when every learner ranked is among the highest', () => {
    const text = writeBuiltinSummary(
      statistics({
        learners: 3,
        topLearners: [
          { name: 'Cyd', value: '90' },
          { name: 'Dan', value: '85' },
        ],
        bottomLearners: [{ name: 'Ann', value: '80' }],
      }),
    );
    expect(text).toContain('- Highest: Cyd (90) and Dan (85)\n- Lowest: Ann (80)');
    const alone = writeBuiltinSummary(
      statistics({ learners: 2, topLearners: [{ name: 'Cyd', value: '90' }], bottomLearners: [] }),
    );
    expect(alone).toContain('- Highest: Cyd (90)');
    expect(alone).not.toContain('Lowest');
  });

  it('counts latest values per course beside the learners when they differ', () => {
    const text = writeBuiltinSummary(statistics({ learners: 4, values: 6 }));
    expect(text).toContain(
      '4 learners have a value, from 10 values recorded between 6 Jan 2026 and 21 Mar 2026. Counting one latest value per learner and course, that is 6 values.',
    );
  });

  it('says when nothing was recorded recently', () => {
    const text = writeBuiltinSummary(
      statistics({
        trend: { metric: 'mean', weeks: weeks([]), direction: 'not-enough-data', from: null, to: null },
      }),
    );
    expect(text).toContain('No values were recorded in the last 12 weeks, so there is no recent trend.');
  });
});

describe('trend direction', () => {
  it('compares the first and last weeks with values, with a tolerance', () => {
    expect(
      trendDirection(
        'mean',
        weeks([
          [1, 60],
          [1, 72],
        ]),
      ),
    ).toEqual({ direction: 'up', from: 60, to: 72 });
    expect(
      trendDirection(
        'mean',
        weeks([
          [1, 72],
          [0, null],
          [1, 60],
        ]),
      ),
    ).toMatchObject({ direction: 'down' });
    expect(
      trendDirection(
        'mean',
        weeks([
          [1, 70],
          [1, 72],
        ]),
      ),
    ).toMatchObject({ direction: 'flat' });
    expect(
      trendDirection(
        'true-rate',
        weeks([
          [1, 0.5],
          [1, 0.53],
        ]),
      ),
    ).toMatchObject({ direction: 'flat' });
    expect(
      trendDirection(
        'values',
        weeks([
          [10, null],
          [5, null],
        ]),
      ),
    ).toEqual({ direction: 'down', from: 10, to: 5 });
    expect(trendDirection('mean', weeks([[3, 50]]))).toEqual({
      direction: 'not-enough-data',
      from: 50,
      to: 50,
    });
    expect(trendDirection('mean', weeks([]))).toEqual({ direction: 'not-enough-data', from: null, to: null });
  });

  it('leaves the current week out: it is not over, so neither its count nor its mean compares', () => {
    const current = weeks(
      [
        [10, 60],
        [10, 60],
        [2, 80],
      ],
      true,
    );
    expect(trendDirection('values', current)).toEqual({ direction: 'flat', from: 10, to: 10 });
    expect(trendDirection('mean', current)).toEqual({ direction: 'flat', from: 60, to: 60 });
  });
});

describe('the LLM engine’s input and output', () => {
  it('sends the statistics and what their counts mean as JSON, every e-mail address hidden', () => {
    const prompt = buildLlmPrompt(
      statistics({
        subject: {
          ...statistics().subject,
          description: 'Ask ann.lee@example.com or <bob@corp.io>, mail a.b+c@x.co.uk',
        },
      }),
    );
    expect(prompt).toContain('"median": 77.5');
    expect(prompt).toContain('"name": "Cyd"');
    expect(prompt).toContain(`"recordedValues": "${AI_SUMMARY_COUNT_DEFINITIONS.recordedValues}"`);
    expect(prompt).toContain('Ask (hidden) or <(hidden)>, mail (hidden)');
    expect(prompt).not.toContain('@');
  });

  it('strips Markdown headings and emphasis, keeps "- " bullets', () => {
    expect(normalizeLlmText('# Title\r\n\r\n\r\n**Bold** and __this__\n* one\n• two\n')).toBe(
      'Title\n\nBold and this\n- one\n- two',
    );
  });

  it('formats days in UTC', () => {
    expect(formatDay('2026-01-31T23:30:00.000Z')).toBe('31 Jan 2026');
  });
});
