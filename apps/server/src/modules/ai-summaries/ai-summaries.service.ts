import {
  AI_SUMMARY_MESSAGES,
  AI_SUMMARY_NAMED_OUTLIERS,
  AI_SUMMARY_RANKED_LEARNERS,
  AI_SUMMARY_TREND_WEEKS,
  LEARNING_MESSAGES,
  aiSummaryStatisticsSchema,
  type AiSummaryStatistics,
  type AiSummarySubject,
  type SummaryDistribution,
  type SummaryRankedLearner,
  type SummaryTrend,
  type VariableAiSummary,
} from '@courselens/contracts';
import { z } from 'zod';
import type { Database } from '../../db/client';
import type { AiSummarySourceKind } from '../../db/schema';
import { AppError } from '../../errors';
import type { LlmEngine } from '../../lib/llm';
import {
  LLM_SUMMARY_SYSTEM,
  buildLlmPrompt,
  normalizeLlmText,
  redactEmails,
  trendDirection,
  writeBuiltinSummary,
} from './ai-summaries.engines';
import {
  findCachedSummary,
  findCourseVariableById,
  findCourseVariableByName,
  selectHistogram,
  selectLatestSummary,
  selectOtherCourses,
  selectOutliers,
  selectRankedLearners,
  selectTopValues,
  selectUsage,
  selectWeeklyTrend,
  upsertSummary,
  type RankedRow,
  type SubjectRow,
  type ValueScope,
} from './ai-summaries.queries';

/** What a summary is written about and where it is cached. */
export type SummarySource = {
  kind: AiSummarySourceKind;
  /** Unique within the organization and kind. */
  key: string;
  subject: AiSummarySubject;
  scope: ValueScope;
};

const HISTOGRAM_BINS = 10;
const TOP_VALUES = 5;
const OTHER_COURSES = 10;

function toIso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function courseVariableSource(organizationId: string, row: SubjectRow): SummarySource {
  return {
    // One summary per course variable, whichever page (by id or by course and
    // name) asks for it: both show the same text.
    kind: 'course_variable',
    key: `${row.course_id}:${row.name}`,
    subject: {
      variableType: 'course',
      variableId: row.variable_id,
      variableName: row.name,
      variableTitle: row.title,
      description: row.description,
      dataType: row.data_type,
      courseId: row.course_id,
      courseTitle: row.course_title,
    },
    scope: { kind: 'course_variable', organizationId, variableId: row.variable_id, dataType: row.data_type },
  };
}

/** A course variable by its course and name; a deleted course or another organization's is not found. */
export async function resolveCourseVariableSource(
  db: Database,
  input: { organizationId: string; courseId: string; variableName: string },
): Promise<SummarySource> {
  const row = await findCourseVariableByName(db, input.organizationId, input.courseId, input.variableName);
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  return courseVariableSource(input.organizationId, row);
}

/** A course variable by id. */
export async function resolveVariableSource(
  db: Database,
  input: { organizationId: string; variableId: string },
): Promise<SummarySource> {
  const row = await findCourseVariableById(db, input.organizationId, input.variableId);
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  return courseVariableSource(input.organizationId, row);
}

/**
 * An agent (chatbot) variable. Agents and their variables arrive with a later
 * issue: until then none exists, and the answer says so. Wiring them means
 * resolving the row here and adding its tables to `valueTables`.
 */
export function resolveChatbotVariableSource(): never {
  throw new AppError('NOT_FOUND', AI_SUMMARY_MESSAGES.chatbotVariablesUnavailable);
}

function displayName(row: RankedRow): SummaryRankedLearner {
  return { name: row.name ?? 'An unnamed learner', value: row.value ?? '' };
}

/** Every figure the engines write from, computed in the database. */
export async function computeStatistics(
  db: Database,
  source: SummarySource,
  now: Date,
): Promise<AiSummaryStatistics> {
  const { scope, subject } = source;
  const [usage, latest, weeks, otherCourses] = await Promise.all([
    selectUsage(db, scope),
    selectLatestSummary(db, scope),
    selectWeeklyTrend(db, scope, { now, weeks: AI_SUMMARY_TREND_WEEKS }),
    subject.courseId === null
      ? Promise.resolve([])
      : selectOtherCourses(db, {
          organizationId: scope.organizationId,
          variableId: subject.variableId,
          name: subject.variableName,
          dataType: subject.dataType,
          limit: OTHER_COURSES,
        }),
  ]);

  const hasNumbers =
    subject.dataType === 'number' &&
    latest.numbers > 0 &&
    latest.mean !== null &&
    latest.median !== null &&
    latest.min !== null &&
    latest.max !== null &&
    latest.q1 !== null &&
    latest.q3 !== null;
  const numeric = hasNumbers
    ? {
        mean: latest.mean ?? 0,
        median: latest.median ?? 0,
        // The sample deviation (as the variable report shows) has no value for one learner: 0 spread.
        standardDeviation: latest.standard_deviation ?? 0,
        min: latest.min ?? 0,
        max: latest.max ?? 0,
        q1: latest.q1 ?? 0,
        q3: latest.q3 ?? 0,
      }
    : null;

  let distribution: SummaryDistribution | null = null;
  let outliers: AiSummaryStatistics['outliers'] = null;
  let topLearners: SummaryRankedLearner[] = [];
  let bottomLearners: SummaryRankedLearner[] = [];

  const ranked = async () => {
    const [top, bottom] = await Promise.all([
      selectRankedLearners(db, scope, { direction: 'desc', limit: AI_SUMMARY_RANKED_LEARNERS }),
      selectRankedLearners(db, scope, { direction: 'asc', limit: AI_SUMMARY_RANKED_LEARNERS }),
    ]);
    topLearners = top.map(displayName);
    bottomLearners = bottom.map(displayName);
  };

  switch (subject.dataType) {
    case 'number': {
      if (numeric) {
        const bins = Math.max(1, Math.min(HISTOGRAM_BINS, latest.distinct_numbers));
        const width = (numeric.max - numeric.min) / bins;
        const iqr = numeric.q3 - numeric.q1;
        const fences = { lowerFence: numeric.q1 - 1.5 * iqr, upperFence: numeric.q3 + 1.5 * iqr };
        const [counts, found] = await Promise.all([
          selectHistogram(db, scope, { min: numeric.min, max: numeric.max, bins }),
          selectOutliers(db, scope, { ...fences, limit: AI_SUMMARY_NAMED_OUTLIERS }),
          ranked(),
        ]);
        distribution = {
          kind: 'histogram',
          bins: counts.map(({ bin, count }) => ({
            from: numeric.min + (bin - 1) * width,
            to: bin === bins ? numeric.max : numeric.min + bin * width,
            count,
          })),
        };
        outliers = { ...fences, count: found.count, learners: found.learners.map(displayName) };
      }
      break;
    }
    case 'text': {
      const values = latest.learners > 0 ? await selectTopValues(db, scope, TOP_VALUES) : [];
      const listed = values.reduce((sum, entry) => sum + entry.count, 0);
      distribution = {
        kind: 'top-values',
        values: values.map((entry) => ({
          value: entry.value,
          count: entry.count,
          share: latest.learners > 0 ? entry.count / latest.learners : 0,
        })),
        otherCount: Math.max(0, latest.learners - listed),
      };
      break;
    }
    case 'boolean': {
      const answered = latest.true_count + latest.false_count;
      distribution = {
        kind: 'boolean',
        trueCount: latest.true_count,
        falseCount: latest.false_count,
        trueRate: answered > 0 ? latest.true_count / answered : null,
      };
      break;
    }
    case 'date': {
      const earliest = toIso(latest.earliest_date);
      const last = toIso(latest.latest_date);
      distribution = {
        kind: 'date-range',
        earliest,
        median: toIso(latest.median_date),
        latest: last,
        spanDays:
          earliest && last ? (new Date(last).getTime() - new Date(earliest).getTime()) / 86_400_000 : null,
      };
      if (earliest) await ranked();
      break;
    }
  }

  const metric: SummaryTrend['metric'] =
    subject.dataType === 'number' ? 'mean' : subject.dataType === 'boolean' ? 'true-rate' : 'values';
  const trendWeeks = weeks.map((week) => ({
    weekStart: toIso(week.week_start) ?? '',
    values: week.values,
    mean: metric === 'values' ? null : week.mean,
  }));

  return {
    subject,
    learners: latest.learners,
    values: usage.values,
    distinctValues: latest.distinct_values,
    firstRecordedAt: toIso(usage.first_recorded_at),
    lastRecordedAt: toIso(usage.last_recorded_at),
    numeric,
    distribution,
    trend: { metric, weeks: trendWeeks, ...trendDirection(metric, trendWeeks) },
    outliers,
    topLearners,
    bottomLearners,
    otherCourses: otherCourses.map((row) => ({
      courseId: row.course_id,
      courseTitle: row.course_title,
      learners: row.learners,
      mean: row.mean,
    })),
    computedAt: now.toISOString(),
  };
}

type Written = Pick<VariableAiSummary, 'content' | 'engine' | 'model' | 'notice'>;

/**
 * Writes the narrative: with the LLM engine when the app has one, else the
 * built-in engine. When the model fails (unreachable, error, empty answer)
 * the built-in engine writes it instead and `notice` says so: a summary that
 * reads the same figures is more useful than an error page, and the person
 * can regenerate to try the model again.
 */
export async function writeSummary(
  statistics: AiSummaryStatistics,
  llm: LlmEngine | null,
  onLlmError: (error: unknown) => void = () => undefined,
): Promise<Written> {
  if (llm) {
    try {
      const text = await llm.generateText({ system: LLM_SUMMARY_SYSTEM, prompt: buildLlmPrompt(statistics) });
      const content = redactEmails(normalizeLlmText(text));
      if (content) return { content, engine: 'llm', model: llm.model, notice: null };
    } catch (error) {
      onLlmError(error);
    }
    return {
      content: writeBuiltinSummary(statistics),
      engine: 'builtin',
      model: null,
      notice: AI_SUMMARY_MESSAGES.llmFailedFellBack,
    };
  }
  return { content: writeBuiltinSummary(statistics), engine: 'builtin', model: null, notice: null };
}

/** What the `statistics` column holds: the figures the text was written from, and the notice shown with it. */
const storedStatistics = z.object({ statistics: aiSummaryStatisticsSchema, notice: z.string().nullable() });

export type SummaryOptions = {
  /** Write a new summary even when one is cached. */
  isRegenerating: boolean;
  now?: Date;
  onLlmError?: (error: unknown) => void;
};

/**
 * The cached summary of a source, or a new one (first request or
 * regeneration), stored in place of the previous. `hasNewerData` tells
 * whether values arrived since the cached one was written.
 */
export async function getSummary(
  db: Database,
  llm: LlmEngine | null,
  organizationId: string,
  source: SummarySource,
  options: SummaryOptions,
): Promise<VariableAiSummary> {
  const where = { organizationId, sourceKind: source.kind, sourceKey: source.key };
  if (!options.isRegenerating) {
    const cached = await findCachedSummary(db, where);
    const stored = cached ? storedStatistics.safeParse(cached.statistics) : null;
    // A summary of another variable that had this key before (deleted and
    // re-created), or of an older shape, is written again.
    if (
      cached &&
      stored?.success &&
      stored.data.statistics.subject.variableId === source.subject.variableId
    ) {
      const usage = await selectUsage(db, source.scope);
      const { statistics } = stored.data;
      return {
        content: cached.content,
        engine: cached.engine,
        model: cached.model,
        generatedAt: toIso(cached.generated_at) ?? '',
        notice: stored.data.notice,
        hasNewerData:
          usage.values !== statistics.values || toIso(usage.last_recorded_at) !== statistics.lastRecordedAt,
        statistics: { ...statistics, subject: source.subject },
      };
    }
  }

  const now = options.now ?? new Date();
  const statistics = await computeStatistics(db, source, now);
  const written = await writeSummary(statistics, llm, options.onLlmError);
  await upsertSummary(db, {
    ...where,
    engine: written.engine,
    model: written.model,
    content: written.content,
    statistics: { statistics, notice: written.notice },
    generatedAt: now,
  });
  return { ...written, generatedAt: now.toISOString(), hasNewerData: false, statistics };
}
