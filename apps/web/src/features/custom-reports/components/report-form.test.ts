import {
  MAX_PREVIEW_ITEMS,
  customReportInput,
  type CustomReport,
  type ReportSubject,
} from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import { BUDDY_GOAL, BUDDY_SCORE, catalog, EXIT_SCORE, PASSED, SCORE } from './report-fixtures';
import {
  defaultBreakdown,
  describeQuery,
  emptyQuery,
  formValuesFromDraft,
  formValuesFromReport,
  newFormItem,
  previewPlan,
  subjectCourse,
  subjectDataType,
  subjectLabel,
  toReportInput,
  withSubject,
  type ReportFormItem,
} from './report-form';

function variableItem(variableId: string): ReportFormItem {
  const item = newFormItem();
  return {
    ...item,
    query: withSubject(item.query, { kind: 'variable', variableIds: [variableId] }, catalog),
  };
}

describe('previewPlan', () => {
  it('sends the items that can run, at most the preview’s limit, and says why the others are left out', () => {
    const ready = Array.from({ length: MAX_PREVIEW_ITEMS + 2 }, () => variableItem(SCORE));
    const needsMark: ReportFormItem = {
      ...variableItem(SCORE),
      query: { ...variableItem(SCORE).query, measure: { fn: 'pass_rate', mark: null } },
    };
    const values = formValuesFromDraft(null);
    const plan = previewPlan({ ...values, items: [needsMark, newFormItem(), ...ready] }, catalog);
    expect(plan.sent).toEqual(Array.from({ length: MAX_PREVIEW_ITEMS }, (_, index) => index + 2));
    expect(plan.skipped).toBe(2);
    // The item without a subject is the empty state's business; the one without a mark is listed.
    expect(plan.problems).toEqual([
      { index: 0, message: 'A pass rate of a number variable needs a pass mark' },
    ]);
    expect(plan.input.items?.[0]).toMatchObject({ kind: 'query', displayName: null, chart: 'auto' });
  });
});

describe('withSubject', () => {
  it('gives a new subject its default breakdown and drops a measure it cannot have', () => {
    const score = withSubject(emptyQuery(), { kind: 'variable', variableIds: [SCORE] }, catalog);
    expect(score.breakdown).toEqual({ kind: 'learner', variableName: null });
    const withAverage = { ...score, measure: { fn: 'average' as const, mark: null } };
    const passed = withSubject(withAverage, { kind: 'variable', variableIds: [PASSED] }, catalog);
    expect(passed.measure).toBeNull();
    expect(passed.breakdown).toEqual({ kind: 'none', variableName: null });
    expect(describeQuery(passed, catalog)).toBe('Pass rate of Passed safety check');
  });
});

describe('saving', () => {
  it('turns a stored report into the form and back into the API’s report-model items', () => {
    const query = { ...emptyQuery(), subject: { kind: 'variable' as const, variableIds: [SCORE] } };
    const report = {
      name: 'Scores',
      description: null,
      reportType: 'table',
      config: { periodDays: 30, limit: null },
      items: [
        {
          id: 'b',
          displayOrder: 1,
          displayName: null,
          chart: 'bar',
          query,
          label: '',
          courseTitle: null,
          dataType: null,
        },
        {
          id: 'a',
          displayOrder: 0,
          displayName: 'First',
          chart: 'auto',
          query,
          label: '',
          courseTitle: null,
          dataType: null,
        },
      ],
    } as unknown as CustomReport;
    const values = formValuesFromReport(report);
    expect(values.items.map((item) => item.displayName)).toEqual(['First', '']);
    const parsed = customReportInput.parse(values);
    const input = toReportInput(parsed);
    expect(input.items).toEqual([
      { kind: 'query', displayName: 'First', chart: 'auto', query },
      { kind: 'query', displayName: null, chart: 'bar', query },
    ]);
    expect(customReportInput.safeParse(input).success).toBe(true);
  });
});

describe('agent variables', () => {
  const one: ReportSubject = { kind: 'chatbot_variable', chatbotVariableIds: [BUDDY_SCORE] };
  const both: ReportSubject = { kind: 'chatbot_variable', chatbotVariableIds: [BUDDY_SCORE, EXIT_SCORE] };

  it('are named with their agent, and read in the type the catalog says', () => {
    expect(subjectLabel(one, catalog)).toBe('Score — Onboarding buddy');
    expect(subjectLabel(both, catalog)).toBe('Score (2 agents)');
    expect(subjectCourse(both, catalog)).toBe('Exit interview and Onboarding buddy');
    expect(subjectDataType(one, catalog)).toBe('number');
    expect(subjectLabel({ kind: 'chatbot_variable', chatbotVariableIds: [] }, catalog)).toBeNull();
  });

  it('get the breakdown that reads: learners for one agent, agents for several, each answer for text', () => {
    expect(defaultBreakdown(one, catalog)).toEqual({ kind: 'learner', variableName: null });
    expect(defaultBreakdown(both, catalog)).toEqual({ kind: 'agent', variableName: null });
    expect(defaultBreakdown({ kind: 'chatbot_variable', chatbotVariableIds: [BUDDY_GOAL] }, catalog)).toEqual(
      {
        kind: 'learner',
        variableName: null,
      },
    );
  });

  it('drop a measure a text agent variable cannot have when the subject changes', () => {
    const item = newFormItem('chatbot_variable');
    const scored = withSubject(item.query, one, catalog);
    const averaged = { ...scored, measure: { fn: 'average' as const, mark: null } };
    const text = withSubject(
      averaged,
      { kind: 'chatbot_variable', chatbotVariableIds: [BUDDY_GOAL] },
      catalog,
    );
    expect(text.measure).toBeNull();
    expect(describeQuery(withSubject(item.query, both, catalog), catalog)).toBe(
      'Average of Score (2 agents) by agent',
    );
  });
});
