import {
  DEFAULT_FUNNEL_BREAKDOWN_GROUPS,
  funnelBreakdownSchema,
  funnelDefinitionSchema,
  type FunnelBreakdownInput,
  type FunnelConfig,
  type FunnelDefinitionInput,
  type FunnelOrder,
  type FunnelStepKind,
} from '@courselens/contracts';

/**
 * The funnel builder's state: what the form holds (numbers as typed text),
 * turned into the API's definition and checked by the contract's schema, so
 * the builder says what is missing before anything is sent.
 */

export type DraftStep = {
  /** Stable across reorders (React keys, focus). */
  key: string;
  kind: FunnelStepKind;
  /** The step's own course; '' = the funnel's course (or any course). */
  courseId: string;
  slideNumber: string;
  questionId: string;
  variableId: string;
  value: string;
};

export type FunnelDraft = {
  courseId: string;
  steps: DraftStep[];
  order: FunnelOrder;
  /** '' = the settings' default window. */
  windowDays: string;
  breakdown: { kind: 'none' | 'course' | 'variable'; variableName: string; top: number };
};

let nextKey = 0;
export function newStepKey(): string {
  nextKey += 1;
  return `step-${nextKey}`;
}

export function emptyStep(kind: FunnelStepKind = 'course_started'): DraftStep {
  return {
    key: newStepKey(),
    kind,
    courseId: '',
    slideNumber: '',
    questionId: '',
    variableId: '',
    value: '',
  };
}

export function emptyDraft(courseId = ''): FunnelDraft {
  return {
    courseId,
    steps: [emptyStep('course_started'), emptyStep('completed')],
    order: 'sequential',
    windowDays: '',
    breakdown: { kind: 'none', variableName: '', top: DEFAULT_FUNNEL_BREAKDOWN_GROUPS },
  };
}

export function draftFromConfig(config: FunnelConfig): FunnelDraft {
  const { definition, breakdown } = config;
  return {
    courseId: definition.courseId ?? '',
    order: definition.order,
    windowDays: definition.windowDays === null ? '' : String(definition.windowDays),
    steps: definition.steps.map((step) => ({
      key: newStepKey(),
      kind: step.kind,
      courseId: step.courseId ?? '',
      slideNumber:
        step.slideNumber === null || step.slideNumber === undefined ? '' : String(step.slideNumber),
      questionId: step.questionId ?? '',
      variableId: step.variableId ?? '',
      value: step.value ?? '',
    })),
    breakdown: {
      kind: breakdown.kind,
      variableName: breakdown.kind === 'variable' ? breakdown.variableName : '',
      top: breakdown.kind === 'none' ? DEFAULT_FUNNEL_BREAKDOWN_GROUPS : breakdown.top,
    },
  };
}

function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  // Sent as typed when it is not a whole number: the schema names the problem.
  return Number.isFinite(value) ? value : Number.NaN;
}

export function definitionFromDraft(draft: FunnelDraft): FunnelDefinitionInput {
  return {
    courseId: draft.courseId || null,
    order: draft.order,
    windowDays: wholeNumber(draft.windowDays),
    steps: draft.steps.map((step) => ({
      kind: step.kind,
      courseId: step.courseId || null,
      ...(step.kind === 'slide_viewed' ? { slideNumber: wholeNumber(step.slideNumber) } : {}),
      ...(step.kind === 'question_answered' ? { questionId: step.questionId || null } : {}),
      ...(step.kind === 'variable_set'
        ? { variableId: step.variableId || null, value: step.value.trim() === '' ? null : step.value }
        : {}),
    })),
  };
}

export function breakdownFromDraft(draft: FunnelDraft): FunnelBreakdownInput {
  if (draft.breakdown.kind === 'course') return { kind: 'course', top: draft.breakdown.top };
  if (draft.breakdown.kind === 'variable') {
    return { kind: 'variable', variableName: draft.breakdown.variableName, top: draft.breakdown.top };
  }
  return { kind: 'none' };
}

/** Problems of a draft by field ("steps.1.slideNumber", "windowDays", "breakdown"); empty when it can be computed. */
export function draftProblems(draft: FunnelDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  const definition = funnelDefinitionSchema.safeParse(definitionFromDraft(draft));
  if (!definition.success) {
    for (const issue of definition.error.issues) {
      const path = issue.path.join('.') || 'steps';
      problems[path] ??= issue.message;
    }
  }
  const breakdown = funnelBreakdownSchema.safeParse(breakdownFromDraft(draft));
  if (!breakdown.success) problems.breakdown ??= breakdown.error.issues[0]?.message ?? 'Check the breakdown';
  return problems;
}

/** The config to save, or null while the draft has problems. */
export function configFromDraft(draft: FunnelDraft): FunnelConfig | null {
  if (Object.keys(draftProblems(draft)).length > 0) return null;
  return {
    definition: funnelDefinitionSchema.parse(definitionFromDraft(draft)),
    breakdown: funnelBreakdownSchema.parse(breakdownFromDraft(draft)),
  };
}

/** Moves the step at `from` to `to` (both in range), keeping the others in order. */
export function moveStep(steps: readonly DraftStep[], from: number, to: number): DraftStep[] {
  if (to < 0 || to >= steps.length || from === to) return [...steps];
  const next = [...steps];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(to, 0, moved);
  return next;
}
