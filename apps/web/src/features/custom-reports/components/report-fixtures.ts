import {
  BREAKDOWN_LABELS,
  COUNT_MEASURES,
  MEASURE_LABELS,
  METRIC_DEFINITIONS,
  RATE_MEASURES,
  type MeasureFn,
  type ReportCatalog,
  type ReportItemData,
  type ReportQuery,
  type ReportResult,
  type ReportResultRow,
} from '@courselens/contracts';

// Data the custom-report tests share: a small catalog and builders of
// report results in the contract's shape (what the server answers).

export const SAFETY = '33333333-3333-4333-8333-333333333333';
export const ONBOARDING = '66666666-6666-4666-8666-666666666666';
export const SCORE = '11111111-1111-4111-8111-111111111111';
export const ONBOARDING_SCORE = '77777777-7777-4777-8777-777777777777';
export const PASSED = '22222222-2222-4222-8222-222222222222';
export const DEPARTMENT = '88888888-8888-4888-8888-888888888888';
export const Q3 = '44444444-4444-4444-8444-444444444444';
export const BUDDY = '99999999-9999-4999-8999-999999999999';
export const EXIT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const BUDDY_SCORE = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
export const EXIT_SCORE = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
export const BUDDY_GOAL = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

export const catalog: ReportCatalog = {
  courses: [
    { id: SAFETY, courseTitle: 'Workplace Safety' },
    { id: ONBOARDING, courseTitle: 'New Hire Onboarding' },
  ],
  variables: [
    {
      id: SCORE,
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
      courseId: SAFETY,
      courseTitle: 'Workplace Safety',
    },
    {
      id: PASSED,
      name: 'passed_safety_check',
      title: 'Passed safety check',
      dataType: 'boolean',
      courseId: SAFETY,
      courseTitle: 'Workplace Safety',
    },
    {
      id: DEPARTMENT,
      name: 'department',
      title: null,
      dataType: 'text',
      courseId: SAFETY,
      courseTitle: 'Workplace Safety',
    },
    {
      id: ONBOARDING_SCORE,
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
      courseId: ONBOARDING,
      courseTitle: 'New Hire Onboarding',
    },
  ],
  chatbotVariables: [
    {
      id: EXIT_SCORE,
      name: 'score',
      title: 'Score',
      dataType: 'number',
      chatbotId: EXIT,
      chatbotName: 'Exit interview',
    },
    {
      id: BUDDY_GOAL,
      name: 'goal',
      title: null,
      dataType: 'text',
      chatbotId: BUDDY,
      chatbotName: 'Onboarding buddy',
    },
    {
      id: BUDDY_SCORE,
      name: 'score',
      title: 'Score',
      dataType: 'number',
      chatbotId: BUDDY,
      chatbotName: 'Onboarding buddy',
    },
  ],
  questions: [
    {
      id: Q3,
      courseId: SAFETY,
      courseTitle: 'Workplace Safety',
      slideNumber: 6,
      questionNumber: 3,
      questionText: 'Breaks?',
    },
  ],
  values: [{ variableName: 'department', values: ['Sales', 'Finance', 'Operations'] }],
};

export function row(overrides: Partial<ReportResultRow> & { key: string }): ReportResultRow {
  return {
    label: overrides.key,
    value: null,
    learners: 1,
    count: 1,
    detail: null,
    isPartial: false,
    groups: null,
    ...overrides,
  };
}

export function result(
  fn: MeasureFn,
  breakdown: ReportQuery['breakdown'],
  rows: ReportResultRow[],
  overrides: Partial<ReportResult> = {},
): ReportResult {
  return {
    measure: {
      fn,
      label: MEASURE_LABELS[fn],
      unit: RATE_MEASURES.includes(fn) ? 'percent' : COUNT_MEASURES.includes(fn) ? 'count' : 'number',
      definition: METRIC_DEFINITIONS[fn],
    },
    breakdown: {
      kind: breakdown.kind,
      label:
        breakdown.kind === 'variable' ? (breakdown.variableName ?? '') : BREAKDOWN_LABELS[breakdown.kind],
    },
    total: { value: null, learners: rows.reduce((sum, entry) => sum + entry.learners, 0), count: 0 },
    rows,
    others: null,
    groupCount: rows.length,
    period: { from: null, to: null },
    ...overrides,
  };
}

export function itemData(
  overrides: Partial<ReportItemData> & Pick<ReportItemData, 'itemId' | 'title' | 'chart'>,
): ReportItemData {
  const breakdown = overrides.result?.breakdown.kind ?? 'none';
  return {
    courseTitle: 'Workplace Safety',
    dataType: 'number',
    available: true,
    result: null,
    query: {
      subject: { kind: 'variable', variableIds: [SCORE] },
      measure: overrides.result ? { fn: overrides.result.measure.fn, mark: null } : null,
      breakdown: { kind: breakdown, variableName: breakdown === 'variable' ? 'department' : null },
      filters: { courseIds: [], period: null, values: [], activity: [] },
      sort: null,
      limit: null,
    },
    ...overrides,
  };
}
