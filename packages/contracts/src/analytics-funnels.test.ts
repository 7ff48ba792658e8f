import { describe, expect, it } from 'vitest';
import {
  FUNNEL_MESSAGES,
  funnelBreakdownSchema,
  funnelComputeInput,
  funnelConfigSchema,
  funnelDefinitionSchema,
  funnelPeriodSchema,
  funnelStepCourseId,
  funnelUpdateInput,
} from './analytics-funnels';

const course = '7f1e4a52-7c1b-4f5e-9a59-0d6f1f3f2a10';
const other = '2b9a4c1e-3d5f-4a6b-8c7d-9e0f1a2b3c4d';
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('funnelDefinitionSchema', () => {
  it('fills the defaults: sequential, the settings’ window, no course', () => {
    expect(
      funnelDefinitionSchema.parse({ steps: [{ kind: 'course_started' }, { kind: 'completed' }] }),
    ).toEqual({
      courseId: null,
      order: 'sequential',
      windowDays: null,
      steps: [{ kind: 'course_started' }, { kind: 'completed' }],
    });
  });

  it('takes 2 to 10 steps', () => {
    const steps = (count: number) =>
      Array.from({ length: count }, () => ({ kind: 'course_started' as const }));
    expect(messages(funnelDefinitionSchema.safeParse({ steps: steps(1) }))).toEqual([
      FUNNEL_MESSAGES.tooFewSteps,
    ]);
    expect(funnelDefinitionSchema.safeParse({ steps: steps(10) }).success).toBe(true);
    expect(messages(funnelDefinitionSchema.safeParse({ steps: steps(11) }))).toEqual([
      FUNNEL_MESSAGES.tooManySteps,
    ]);
  });

  it('asks each kind for what it needs, and nothing it does not use', () => {
    const check = (step: Record<string, unknown>) =>
      messages(
        funnelDefinitionSchema.safeParse({ courseId: course, steps: [{ kind: 'course_started' }, step] }),
      );
    expect(check({ kind: 'slide_viewed' })).toEqual([FUNNEL_MESSAGES.slideRequired]);
    expect(check({ kind: 'slide_viewed', slideNumber: 2.5 })).toEqual([FUNNEL_MESSAGES.slideRequired]);
    expect(check({ kind: 'slide_viewed', slideNumber: 3 })).toEqual([]);
    expect(check({ kind: 'variable_set' })).toEqual([FUNNEL_MESSAGES.variableRequired]);
    expect(check({ kind: 'variable_set', variableId: other, value: 'Sales' })).toEqual([]);
    expect(check({ kind: 'passed', slideNumber: 3 })).toEqual([FUNNEL_MESSAGES.slideOnlyForSlides]);
    expect(check({ kind: 'completed', questionId: other })).toEqual([
      FUNNEL_MESSAGES.questionOnlyForQuestions,
    ]);
    expect(check({ kind: 'question_answered', value: 'x' })).toEqual([
      FUNNEL_MESSAGES.variableOnlyForVariables,
    ]);
    expect(check({ kind: 'question_answered', questionId: 'nope' })).toEqual(['Question not found']);
    expect(check({ kind: 'clicked' })).toEqual([FUNNEL_MESSAGES.invalidKind]);
  });

  it('needs a course for slides, questions and variables, not for started, passed and completed', () => {
    const result = funnelDefinitionSchema.safeParse({
      steps: [{ kind: 'course_started' }, { kind: 'question_answered' }, { kind: 'completed' }],
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['steps', 1, 'courseId'], message: FUNNEL_MESSAGES.courseRequired }),
    ]);
    const own = funnelDefinitionSchema.parse({
      steps: [{ kind: 'course_started' }, { kind: 'question_answered', courseId: other.toUpperCase() }],
    });
    // Ids are lower-cased once, here.
    expect(own.steps[1]?.courseId).toBe(other);
    expect(funnelStepCourseId(own, own.steps[1] ?? { courseId: null })).toBe(other);
    expect(funnelStepCourseId({ courseId: course }, { courseId: undefined })).toBe(course);
  });

  it('takes a window of 1 to 365 whole days', () => {
    const base = { steps: [{ kind: 'course_started' }, { kind: 'completed' }] };
    expect(funnelDefinitionSchema.safeParse({ ...base, windowDays: 0 }).success).toBe(false);
    expect(funnelDefinitionSchema.safeParse({ ...base, windowDays: 1.5 }).success).toBe(false);
    expect(funnelDefinitionSchema.safeParse({ ...base, windowDays: 366 }).success).toBe(false);
    expect(funnelDefinitionSchema.parse({ ...base, windowDays: 365 }).windowDays).toBe(365);
  });
});

describe('breakdown, period and saving', () => {
  it('breaks down by course or by a named variable, top 1 to 20 (5 by default)', () => {
    expect(funnelBreakdownSchema.parse({ kind: 'course' })).toEqual({ kind: 'course', top: 5 });
    expect(funnelBreakdownSchema.parse({ kind: 'variable', variableName: ' department ', top: 3 })).toEqual({
      kind: 'variable',
      variableName: 'department',
      top: 3,
    });
    expect(messages(funnelBreakdownSchema.safeParse({ kind: 'variable', variableName: ' ' }))).toEqual([
      FUNNEL_MESSAGES.breakdownVariableRequired,
    ]);
    expect(messages(funnelBreakdownSchema.safeParse({ kind: 'course', top: 21 }))).toEqual([
      FUNNEL_MESSAGES.invalidTop,
    ]);
  });

  it('refuses a reversed period and one longer than 366 days', () => {
    expect(funnelPeriodSchema.safeParse({ from: '2026-03-01', to: '2026-03-31' }).success).toBe(true);
    expect(messages(funnelPeriodSchema.safeParse({ from: '2026-03-31', to: '2026-03-01' }))).toEqual([
      'The start date must be on or before the end date',
    ]);
    expect(messages(funnelPeriodSchema.safeParse({ from: '2025-01-01', to: '2026-01-02' }))).toEqual([
      FUNNEL_MESSAGES.periodTooLong,
    ]);
    expect(
      funnelComputeInput.parse({ definition: { steps: [{ kind: 'course_started' }, { kind: 'passed' }] } }),
    ).toMatchObject({ period: {}, breakdown: { kind: 'none' }, compare: false });
  });

  it('stores a config that reads back the same, and updates need something to change', () => {
    const config = funnelConfigSchema.parse({
      definition: { courseId: course, steps: [{ kind: 'course_started' }, { kind: 'completed' }] },
    });
    expect(funnelConfigSchema.parse(JSON.parse(JSON.stringify(config)))).toEqual(config);
    expect(messages(funnelUpdateInput.safeParse({}))).toEqual([FUNNEL_MESSAGES.nothingToUpdate]);
    expect(funnelUpdateInput.parse({ name: ' New name ' })).toEqual({ name: 'New name' });
  });
});
