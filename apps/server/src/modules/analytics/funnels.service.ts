import {
  daysBetween,
  previousPeriodOf,
  ANALYTICS_MESSAGES,
  DEFAULT_FUNNEL_PERIOD_DAYS,
  FUNNEL_MESSAGES,
  FUNNEL_NO_VALUE_GROUP,
  FUNNEL_OTHER_GROUP,
  MAX_FUNNEL_PERIOD_DAYS,
  funnelConfigSchema,
  funnelStepCourseId,
  type AnalyticsBasis,
  type FunnelBreakdown,
  type FunnelBreakdownGroup,
  type FunnelComputeRequest,
  type FunnelComputeResult,
  type FunnelConfig,
  type FunnelDefinition,
  type FunnelDroppedLearner,
  type FunnelDroppedOffResponse,
  type FunnelPeriod,
  type FunnelStepResult,
  type ListFunnelsResponse,
  type SavedFunnel,
  type ErrorIssue,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { MAX_EXPORT_ROWS, type CsvColumn } from '../../lib/csv';
import { insertActivity } from '../organizations/organizations.queries';
import { analyticsBasis, loadAnalyticsScope, type AnalyticsScope } from './analytics-settings.service';
import { compareProportions, resolvePeriod, timeBins } from './funnel-math';
import {
  countFunnels,
  deleteFunnelRow,
  insertFunnel,
  selectCourseLabels,
  selectDroppedLearners,
  selectFunnel,
  selectFunnelAggregates,
  selectFunnelCounts,
  selectFunnelReferences,
  selectFunnels,
  selectSuggestionCourse,
  updateFunnelRow,
  type FunnelAggregateRow,
  type FunnelPlan,
  type FunnelRow,
  type PlannedStep,
  type QuestionReference,
} from './funnels.queries';

/** A definition checked against the organization's data, with each step's words. */
type ResolvedFunnel = {
  steps: PlannedStep[];
  labels: { label: string; courseTitle: string | null }[];
};

function validationError(issues: ErrorIssue[]): never {
  throw new AppError('VALIDATION_ERROR', issues[0]?.message ?? 'Check the funnel’s steps', issues);
}

function questionWords(question: QuestionReference): string {
  const number = question.questionNumber !== null ? `Q${question.questionNumber}` : question.interactionId;
  const text = question.questionText?.trim();
  return text ? `${number} · ${text.length > 80 ? `${text.slice(0, 79)}…` : text}` : number;
}

/**
 * Checks that every course, question and variable a definition names is the
 * organization's (a live course; a question or variable of the step's
 * course), and writes each step's label. `path` prefixes the issues' paths.
 */
export async function resolveFunnel(
  db: Database,
  organizationId: string,
  definition: FunnelDefinition,
  path = 'body.definition',
): Promise<ResolvedFunnel> {
  const courseIds = new Set<string>();
  const questionIds = new Set<string>();
  const variableIds = new Set<string>();
  for (const step of definition.steps) {
    const courseId = funnelStepCourseId(definition, step);
    if (courseId) courseIds.add(courseId);
    if (step.kind === 'question_answered' && step.questionId) questionIds.add(step.questionId);
    if (step.kind === 'variable_set' && step.variableId) variableIds.add(step.variableId);
  }
  const found = await selectFunnelReferences(db, organizationId, {
    courseIds: [...courseIds],
    questionIds: [...questionIds],
    variableIds: [...variableIds],
  });
  const courses = new Map(found.courses.map((course) => [course.id, course.title]));
  const questions = new Map(found.questions.map((question) => [question.id, question]));
  const variables = new Map(found.variables.map((variable) => [variable.id, variable]));

  const issues: ErrorIssue[] = [];
  if (definition.courseId && !courses.has(definition.courseId)) {
    issues.push({
      path: `${path}.courseId`,
      message: 'The funnel’s course no longer exists: choose another',
    });
  }
  const steps: PlannedStep[] = [];
  const labels: ResolvedFunnel['labels'] = [];
  definition.steps.forEach((step, index) => {
    const stepPath = `${path}.steps.${index}`;
    const courseId = funnelStepCourseId(definition, step);
    if (step.courseId && !courses.has(step.courseId)) {
      issues.push({
        path: `${stepPath}.courseId`,
        message: `Step ${index + 1}: the course no longer exists`,
      });
    }
    let label: string;
    switch (step.kind) {
      case 'course_started':
        label = 'Started the course';
        break;
      case 'slide_viewed':
        label = `Viewed slide ${step.slideNumber ?? 0}`;
        break;
      case 'question_answered': {
        if (!step.questionId) {
          label = 'Answered a question';
          break;
        }
        const question = questions.get(step.questionId);
        if (!question) {
          issues.push({
            path: `${stepPath}.questionId`,
            message: `Step ${index + 1}: the question no longer exists`,
          });
          label = 'Answered a question';
        } else {
          if (question.courseId !== courseId) {
            issues.push({
              path: `${stepPath}.questionId`,
              message: `Step ${index + 1}: ${FUNNEL_MESSAGES.questionNotInCourse}`,
            });
          }
          label = `Answered ${questionWords(question)}`;
        }
        break;
      }
      case 'variable_set': {
        const variable = step.variableId ? variables.get(step.variableId) : undefined;
        if (!variable) {
          issues.push({
            path: `${stepPath}.variableId`,
            message: `Step ${index + 1}: the variable no longer exists`,
          });
          label = 'Set a variable';
        } else {
          if (variable.courseId !== courseId) {
            issues.push({
              path: `${stepPath}.variableId`,
              message: `Step ${index + 1}: ${FUNNEL_MESSAGES.variableNotInCourse}`,
            });
          }
          const name = variable.title?.trim() || variable.name;
          label =
            step.value !== null && step.value !== undefined
              ? `Set ${name} to “${step.value}”`
              : `Set ${name}`;
        }
        break;
      }
      case 'passed':
        label = 'Passed';
        break;
      case 'completed':
        label = 'Completed';
        break;
    }
    steps.push({
      kind: step.kind,
      courseId,
      slideNumber: step.kind === 'slide_viewed' ? (step.slideNumber ?? null) : null,
      questionId: step.kind === 'question_answered' ? (step.questionId ?? null) : null,
      variableId: step.kind === 'variable_set' ? (step.variableId ?? null) : null,
      value: step.kind === 'variable_set' ? (step.value ?? null) : null,
    });
    labels.push({ label, courseTitle: courseId ? (courses.get(courseId) ?? null) : null });
  });
  if (issues.length > 0) validationError(issues);
  return { steps, labels };
}

function checkedPeriod(scope: AnalyticsScope, period: FunnelPeriod) {
  const resolved = resolvePeriod(period, scope.settings.timeZone, DEFAULT_FUNNEL_PERIOD_DAYS);
  if (daysBetween(resolved.from, resolved.to) + 1 > MAX_FUNNEL_PERIOD_DAYS) {
    validationError([{ path: 'body.period.from', message: FUNNEL_MESSAGES.periodTooLong }]);
  }
  return resolved;
}

function planOf(
  scope: AnalyticsScope,
  definition: FunnelDefinition,
  steps: PlannedStep[],
  period: { from: string; to: string },
): FunnelPlan {
  return {
    organizationId: scope.organizationId,
    settings: scope.settings,
    steps,
    order: definition.order,
    windowDays: definition.windowDays ?? scope.settings.funnelWindowDays,
    period,
  };
}

function rate(count: number, base: number): number {
  return base > 0 ? count / base : 0;
}

/** Breakdown groups in the order shown: the top N, then "Other", then "(no value)". */
async function breakdownGroups(
  db: Database,
  organizationId: string,
  breakdown: Exclude<FunnelBreakdown, { kind: 'none' }>,
  rows: NonNullable<FunnelAggregateRow['groups']>,
): Promise<FunnelBreakdownGroup[]> {
  const sorted = [...rows].sort(
    (a, b) => (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER),
  );
  const titles =
    breakdown.kind === 'course'
      ? await selectCourseLabels(
          db,
          organizationId,
          sorted.flatMap((row) => (row.key ? [row.key] : [])),
        )
      : new Map<string, string>();
  return sorted.map((row) => {
    const isOther = row.key === null && row.rank !== null;
    const label = isOther
      ? FUNNEL_OTHER_GROUP
      : row.key === null
        ? FUNNEL_NO_VALUE_GROUP
        : breakdown.kind === 'course'
          ? (titles.get(row.key) ?? 'Deleted course')
          : row.key;
    const counts = row.counts.map(Number);
    return {
      key: row.key,
      label,
      isOther,
      counts,
      conversion: rate(counts[counts.length - 1] ?? 0, counts[0] ?? 0),
    };
  });
}

/**
 * Computes a funnel over a period (and, with `compare`, over the period of
 * equal length before it, with a significance test per step and overall).
 */
export async function computeFunnel(
  db: Database,
  organizationId: string,
  input: FunnelComputeRequest,
): Promise<FunnelComputeResult> {
  const scope = await loadAnalyticsScope(db, organizationId);
  const resolved = await resolveFunnel(db, organizationId, input.definition);
  const period = checkedPeriod(scope, input.period);
  const plan = planOf(scope, input.definition, resolved.steps, period);
  const previous = input.compare ? previousPeriodOf(period) : null;

  const [current, before, basis] = await Promise.all([
    selectFunnelAggregates(db, plan, input.breakdown),
    previous ? selectFunnelCounts(db, { ...plan, period: previous }) : null,
    analyticsBasis(db, scope),
  ]);

  const windowSeconds = plan.windowDays * 86_400;
  const counts = resolved.steps.map((_, index) => current.counts[index] ?? 0);
  const entered = counts[0] ?? 0;
  const converted = counts[counts.length - 1] ?? 0;
  const steps: FunnelStepResult[] = resolved.steps.map((step, index) => {
    const count = counts[index] ?? 0;
    const previousCount = index === 0 ? count : (counts[index - 1] ?? 0);
    const bins = new Map((current.histogram[index] ?? []).map((count, bin) => [bin, Number(count)] as const));
    let comparison = null;
    if (before && index > 0) {
      comparison = compareProportions(
        { count, base: previousCount },
        { count: before[index] ?? 0, base: before[index - 1] ?? 0 },
      );
    }
    return {
      index,
      kind: step.kind,
      label: resolved.labels[index]?.label ?? '',
      courseId: step.courseId,
      courseTitle: resolved.labels[index]?.courseTitle ?? null,
      questionId: step.questionId,
      count,
      conversionFromFirst: index === 0 ? (entered > 0 ? 1 : 0) : rate(count, entered),
      conversionFromPrevious: index === 0 ? (entered > 0 ? 1 : 0) : rate(count, previousCount),
      droppedOff: index === 0 ? 0 : Math.max(0, previousCount - count),
      medianSeconds: index === 0 ? null : (current.medians[index] ?? null),
      histogram: index === 0 ? [] : timeBins(bins, windowSeconds),
      comparison,
    };
  });

  let breakdown: FunnelComputeResult['breakdown'] = null;
  if (input.breakdown.kind !== 'none' && current.groups) {
    breakdown = {
      kind: input.breakdown.kind,
      label: input.breakdown.kind === 'course' ? 'Course' : input.breakdown.variableName,
      groups: await breakdownGroups(db, organizationId, input.breakdown, current.groups),
    };
  }

  return {
    period,
    previousPeriod: previous,
    order: plan.order,
    windowDays: plan.windowDays,
    isDefaultWindow: input.definition.windowDays === null,
    entered,
    converted,
    conversion: rate(converted, entered),
    medianSecondsToConvert: current.medianTotal,
    steps,
    comparison: before
      ? compareProportions(
          { count: converted, base: entered },
          { count: before[counts.length - 1] ?? 0, base: before[0] ?? 0 },
        )
      : null,
    breakdown,
    basis,
  };
}

type DroppedOffQuery = {
  definition: FunnelDefinition;
  period: FunnelPeriod;
  stepIndex: number;
};

function lastStepLabel(
  definition: FunnelDefinition,
  labels: ResolvedFunnel['labels'],
  index: number,
): string {
  if (definition.order === 'any') return index === 0 ? '1 step done' : `${index + 1} steps done`;
  return `${index + 1}. ${labels[index]?.label ?? ''}`;
}

async function droppedOff(
  db: Database,
  organizationId: string,
  query: DroppedOffQuery,
  page: { limit: number; offset: number },
) {
  if (query.stepIndex >= query.definition.steps.length) {
    validationError([{ path: 'body.stepIndex', message: FUNNEL_MESSAGES.stepOutOfRange }]);
  }
  const scope = await loadAnalyticsScope(db, organizationId);
  const resolved = await resolveFunnel(db, organizationId, query.definition);
  const period = checkedPeriod(scope, query.period);
  const plan = planOf(scope, query.definition, resolved.steps, period);
  const [rows, basis] = await Promise.all([
    selectDroppedLearners(db, plan, query.stepIndex, page),
    analyticsBasis(db, scope),
  ]);
  const lastIndex = query.stepIndex - 1;
  const label = lastStepLabel(query.definition, resolved.labels, lastIndex);
  const items: FunnelDroppedLearner[] = rows.items.map((row) => ({
    learnerId: row.learnerId,
    name: row.name,
    email: row.email,
    lastStepIndex: lastIndex,
    lastStepLabel: label,
    reachedAt: row.reachedAt,
  }));
  return { total: rows.total, items, period, basis };
}

/** One page of the learners who reached step `stepIndex - 1` and not step `stepIndex`, latest first. */
export async function listDroppedOffLearners(
  db: Database,
  organizationId: string,
  input: DroppedOffQuery & { page: number; pageSize: number },
): Promise<FunnelDroppedOffResponse> {
  const result = await droppedOff(db, organizationId, input, {
    limit: input.pageSize,
    offset: (input.page - 1) * input.pageSize,
  });
  return { ...result, page: input.page, pageSize: input.pageSize };
}

/** Every dropped-off learner of a step (up to the export cap), for the CSV. */
export async function exportDroppedOffLearners(
  db: Database,
  organizationId: string,
  input: DroppedOffQuery,
): Promise<{ items: FunnelDroppedLearner[]; period: { from: string; to: string }; basis: AnalyticsBasis }> {
  return droppedOff(db, organizationId, input, { limit: MAX_EXPORT_ROWS, offset: 0 });
}

export const droppedOffCsvColumns: readonly CsvColumn<FunnelDroppedLearner>[] = [
  { header: 'Name', value: (row) => row.name },
  { header: 'E-mail', value: (row) => row.email },
  { header: 'Last step reached', value: (row) => row.lastStepLabel },
  { header: 'Reached at', value: (row) => row.reachedAt },
];

// Saved funnels.

/** A stored row as the API answers it; a configuration that no longer reads is reported, never thrown. */
function savedFunnel(row: FunnelRow): SavedFunnel {
  const parsed = funnelConfigSchema.safeParse(row.config);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    config: parsed.success ? parsed.data : null,
    problem: parsed.success ? null : FUNNEL_MESSAGES.storedConfigInvalid,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** The saved funnels by name, and a suggestion to start from when there are none. */
export async function listFunnels(db: Database, organizationId: string): Promise<ListFunnelsResponse> {
  const rows = await selectFunnels(db, organizationId);
  const items = rows.map(savedFunnel);
  return { items, suggestion: items.length === 0 ? await suggestFunnel(db, organizationId) : null };
}

/** Course started, the first question, completed, in the course with the most runs. */
async function suggestFunnel(
  db: Database,
  organizationId: string,
): Promise<ListFunnelsResponse['suggestion']> {
  const course = await selectSuggestionCourse(db, organizationId);
  if (!course) return null;
  const steps: FunnelConfig['definition']['steps'] = [{ kind: 'course_started' }];
  if (course.questionId) steps.push({ kind: 'question_answered', questionId: course.questionId });
  steps.push({ kind: 'completed' });
  return {
    name: `${course.title}: start to completion`,
    config: funnelConfigSchema.parse({
      definition: { courseId: course.courseId, steps, order: 'sequential', windowDays: null },
      breakdown: { kind: 'none' },
    }),
  };
}

export async function getFunnel(
  db: Database,
  organizationId: string,
  funnelId: string,
): Promise<SavedFunnel> {
  const row = await selectFunnel(db, organizationId, funnelId);
  if (!row) throw new AppError('NOT_FOUND', ANALYTICS_MESSAGES.funnelNotFound);
  return savedFunnel(row);
}

const MAX_SAVED_FUNNELS = 500;

/** Saves a new funnel (its references checked) and records it in the activity, in one transaction. */
export async function createFunnel(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    name: string;
    description: string | null;
    config: FunnelConfig;
  },
): Promise<SavedFunnel> {
  await resolveFunnel(db, input.organizationId, input.config.definition, 'body.config.definition');
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    if ((await countFunnels(t, input.organizationId)) >= MAX_SAVED_FUNNELS) {
      throw new AppError(
        'CONFLICT',
        `An organization keeps at most ${MAX_SAVED_FUNNELS} funnels: delete one first`,
      );
    }
    const row = await insertFunnel(t, {
      organizationId: input.organizationId,
      name: input.name,
      description: input.description,
      config: input.config,
      createdBy: input.userId,
    });
    await insertActivity(t, {
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'analytics.funnel_saved',
      subjectType: 'analytics_funnel',
      subjectId: row.id,
      summary: `Funnel “${row.name}” saved`,
      details: { name: row.name, steps: input.config.definition.steps.length, created: true },
    });
    return savedFunnel(row);
  });
}

/** Renames a funnel, changes its description or replaces its configuration. */
export async function updateFunnel(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    funnelId: string;
    name?: string | undefined;
    description?: string | null | undefined;
    config?: FunnelConfig | undefined;
  },
): Promise<SavedFunnel> {
  if (input.config)
    await resolveFunnel(db, input.organizationId, input.config.definition, 'body.config.definition');
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const before = await selectFunnel(t, input.organizationId, input.funnelId);
    if (!before) throw new AppError('NOT_FOUND', ANALYTICS_MESSAGES.funnelNotFound);
    const row = await updateFunnelRow(t, {
      organizationId: input.organizationId,
      funnelId: input.funnelId,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.config !== undefined ? { config: input.config } : {}),
    });
    if (!row) throw new AppError('NOT_FOUND', ANALYTICS_MESSAGES.funnelNotFound);
    const renamed = before.name !== row.name;
    await insertActivity(t, {
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'analytics.funnel_saved',
      subjectType: 'analytics_funnel',
      subjectId: row.id,
      summary: renamed ? `Funnel “${before.name}” renamed to “${row.name}”` : `Funnel “${row.name}” saved`,
      details: {
        name: row.name,
        ...(renamed ? { previousName: before.name } : {}),
        configChanged: input.config !== undefined,
      },
    });
    return savedFunnel(row);
  });
}

export async function deleteFunnel(
  db: Database,
  input: { organizationId: string; userId: string; funnelId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const deleted = await deleteFunnelRow(t, input.organizationId, input.funnelId);
    if (!deleted) throw new AppError('NOT_FOUND', ANALYTICS_MESSAGES.funnelNotFound);
    await insertActivity(t, {
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'analytics.funnel_deleted',
      subjectType: 'analytics_funnel',
      subjectId: input.funnelId,
      summary: `Funnel “${deleted.name}” deleted`,
      details: { name: deleted.name },
    });
  });
}
