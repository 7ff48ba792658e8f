import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BREAKDOWN_KINDS,
  MAX_CHART_CATEGORIES,
  MEASURE_FNS,
  SUBJECT_BREAKDOWNS,
  SUBJECT_MEASURES,
  defaultMeasure,
  effectiveSort,
  reportQuerySchema,
  resolveChart,
  type BreakdownKind,
  type MeasureFn,
} from './report-model';

const COURSE = '00000000-0000-4000-8000-000000000001';
const QUESTION = '00000000-0000-4000-8000-000000000002';
const AGENT_VARIABLE = '00000000-0000-4000-8000-000000000003';
const breakdown = (kind: BreakdownKind) => ({
  kind,
  variableName: kind === 'variable' ? 'department' : null,
});
const measure = (fn: MeasureFn) => ({ fn, mark: null });

describe('reportQuerySchema', () => {
  it('fills the defaults: automatic measure, no breakdown, no filters, no sort, no limit', () => {
    expect(reportQuerySchema.parse({ subject: { kind: 'courses' } })).toEqual({
      subject: { kind: 'courses', courseIds: [] },
      measure: null,
      breakdown: { kind: 'none', variableName: null },
      filters: { courseIds: [], period: null, values: [], activity: [] },
      sort: null,
      limit: null,
    });
  });

  it('accepts exactly the measures and breakdowns each subject has', () => {
    const subjects = {
      variable: { kind: 'variable', variableIds: [QUESTION] },
      chatbot_variable: { kind: 'chatbot_variable', chatbotVariableIds: [AGENT_VARIABLE] },
      question: { kind: 'question', questionId: QUESTION },
      identifier: { kind: 'identifier', courseId: COURSE, slideNumber: 1 },
      questions: { kind: 'questions' },
      courses: { kind: 'courses' },
    } as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(subjects) as (keyof typeof subjects)[])),
        fc.constantFrom(...MEASURE_FNS),
        fc.constantFrom(...BREAKDOWN_KINDS),
        (subject, fn, kind) => {
          const parsed = reportQuerySchema.safeParse({
            subject: subjects[subject],
            measure: { fn },
            breakdown: breakdown(kind),
          });
          const allowed =
            SUBJECT_MEASURES[subject].includes(fn) && SUBJECT_BREAKDOWNS[subject].includes(kind);
          expect(parsed.success).toBe(allowed);
        },
      ),
    );
  });

  it('says what a subject can measure when asked for something else', () => {
    const parsed = reportQuerySchema.safeParse({
      subject: { kind: 'question', questionId: QUESTION },
      measure: { fn: 'median' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      'A question report can measure: Correct rate, Responses, Learners, Points',
    );
  });

  it('reads agent variables as variables, grouped by agent rather than by course', () => {
    expect(SUBJECT_MEASURES.chatbot_variable).toEqual(SUBJECT_MEASURES.variable);
    expect(SUBJECT_BREAKDOWNS.chatbot_variable).toContain('agent');
    expect(SUBJECT_BREAKDOWNS.chatbot_variable).not.toContain('course');
    expect(SUBJECT_BREAKDOWNS.variable).not.toContain('agent');
    const parsed = reportQuerySchema.safeParse({
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [AGENT_VARIABLE] },
      breakdown: { kind: 'course' },
    });
    expect(parsed.error?.issues[0]?.message).toBe(
      'An agent variable report can be broken down by: Nothing (one number), Learner, Agent, Day, Week, Month, Value of another variable',
    );
  });

  it('says what is wrong with an agent variable subject', () => {
    const message = (input: unknown) => reportQuerySchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ subject: { kind: 'chatbot_variable', chatbotVariableIds: [] } })).toBe(
      'Choose at least one agent variable',
    );
    expect(message({ subject: { kind: 'chatbot_variable', chatbotVariableIds: ['score'] } })).toBe(
      'Agent variable must be an agent variable id',
    );
    expect(
      message({
        subject: {
          kind: 'chatbot_variable',
          chatbotVariableIds: Array.from({ length: 51 }, () => AGENT_VARIABLE),
        },
      }),
    ).toBe('A report item can read at most 50 agent variables');
    expect(
      message({
        subject: { kind: 'chatbot_variable', chatbotVariableIds: [AGENT_VARIABLE] },
        filters: { courseIds: [COURSE] },
      }),
    ).toBe('An agent variable item cannot be narrowed to courses: its values belong to agents, not courses');
    expect(message({ subject: { kind: 'agent' } })).toBe(
      'Choose what the report reads: a variable, an agent variable, a question, every question of some courses, or courses',
    );
  });

  it('lower-cases ids and refuses ids that are no uuids', () => {
    const parsed = reportQuerySchema.parse({
      subject: { kind: 'courses', courseIds: [COURSE.toUpperCase()] },
    });
    expect(parsed.subject).toEqual({ kind: 'courses', courseIds: [COURSE] });
    expect(reportQuerySchema.safeParse({ subject: { kind: 'courses', courseIds: ['x'] } }).success).toBe(
      false,
    );
  });
});

describe('defaults', () => {
  it('measures a number variable by its average, a true/false one by its pass rate, text by counts', () => {
    expect(defaultMeasure('variable', 'number').fn).toBe('average');
    expect(defaultMeasure('variable', 'boolean').fn).toBe('pass_rate');
    expect(defaultMeasure('variable', 'text').fn).toBe('values');
    expect(defaultMeasure('variable', 'date').fn).toBe('values');
    expect(defaultMeasure('chatbot_variable', 'number').fn).toBe('average');
    expect(defaultMeasure('chatbot_variable', 'boolean').fn).toBe('pass_rate');
    expect(defaultMeasure('chatbot_variable', 'text').fn).toBe('values');
    expect(defaultMeasure('questions', null).fn).toBe('correct_rate');
    expect(defaultMeasure('courses', null).fn).toBe('learners');
  });

  it('reads time in order and everything else by the measure, largest first', () => {
    expect(effectiveSort({ breakdown: breakdown('week'), sort: { by: 'measure', order: 'desc' } })).toEqual({
      by: 'label',
      order: 'asc',
    });
    expect(effectiveSort({ breakdown: breakdown('course'), sort: null })).toEqual({
      by: 'measure',
      order: 'desc',
    });
    expect(
      effectiveSort({ breakdown: breakdown('question'), sort: { by: 'measure', order: 'asc' } }),
    ).toEqual({
      by: 'measure',
      order: 'asc',
    });
  });
});

describe('resolveChart', () => {
  const query = (kind: BreakdownKind, fn: MeasureFn = 'learners', limit: number | null = null) => ({
    breakdown: breakdown(kind),
    measure: measure(fn),
    limit,
  });

  it('picks what reads: one number, a line over time, a leaderboard of learners, bars, a table past 30', () => {
    expect(resolveChart('auto', query('none'), 1)).toBe('number');
    expect(resolveChart('auto', query('week'), 40)).toBe('line');
    expect(resolveChart('auto', query('learner'), 5000)).toBe('leaderboard');
    expect(resolveChart('auto', query('course'), 5)).toBe('bar');
    expect(resolveChart('auto', query('variable'), MAX_CHART_CATEGORIES + 1)).toBe('table');
    // A top N brings many groups back under the cap.
    expect(resolveChart('auto', query('question', 'correct_rate', 10), 300)).toBe('bar');
  });

  it('keeps a chosen chart unless it would mislead', () => {
    expect(resolveChart('pie', query('course', 'learners'), 5)).toBe('pie');
    // A pie of rates or averages adds up to nothing.
    expect(resolveChart('pie', query('course', 'pass_rate'), 5)).toBe('table');
    expect(resolveChart('pie', query('course', 'average'), 5)).toBe('table');
    // A line needs time.
    expect(resolveChart('line', query('course'), 5)).toBe('bar');
    expect(resolveChart('table', query('none'), 1)).toBe('table');
    expect(resolveChart('bar', query('none'), 1)).toBe('number');
  });
});
