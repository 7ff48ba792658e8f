import {
  AI_SUMMARY_COUNT_DEFINITIONS,
  AI_SUMMARY_MESSAGES,
  AI_SUMMARY_NAMED_OUTLIERS,
  AI_SUMMARY_RANKED_LEARNERS,
  AI_SUMMARY_TREND_WEEKS,
  LEARNING_MESSAGES,
  aiSummaryStatisticsSchema,
  type AiSummaryStatistics,
  type AiSummarySubject,
  type SummaryCourseComparison,
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
import { withoutEmails } from '../metrics/privacy';
import {
  getByCourse,
  getCategories,
  getHighestAndLowest,
  getHistogram,
  getOutliers,
  getTrend,
  getUsage,
  getValueSummary,
  isRankable,
  type Leader,
} from '../metrics/statistics.service';
import {
  chatbotVariableSource,
  selectChatbotVariables,
  selectCourseVariables,
  type CourseVariableRow,
  type ValueSource,
} from '../metrics/value-source';
import {
  LLM_SUMMARY_SYSTEM,
  buildLlmPrompt,
  normalizeLlmText,
  trendDirection,
  writeBuiltinSummary,
} from './ai-summaries.engines';
import { findCachedSummary, upsertSummary } from './ai-summaries.queries';

/** What a summary is written about and where it is cached. */
export type SummarySource = {
  kind: AiSummarySourceKind;
  /** Unique within the organization and kind. */
  key: string;
  subject: AiSummarySubject;
  /** Where its values live (the metrics layer's value source). */
  source: ValueSource;
};

const TOP_VALUES = 5;
const OTHER_COURSES = 10;

function toIso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function courseVariableSource(organizationId: string, row: CourseVariableRow): SummarySource {
  return {
    // One summary per course variable, whichever page (by id or by course and
    // name) asks for it: both show the same text.
    kind: 'course_variable',
    key: `${row.course_id}:${row.name}`,
    subject: {
      variableType: 'course',
      variableId: row.id,
      variableName: row.name,
      variableTitle: row.title,
      description: row.description,
      dataType: row.data_type,
      courseId: row.course_id,
      courseTitle: row.course_title,
    },
    source: { kind: 'course_variable', organizationId, variableIds: [row.id], dataType: row.data_type },
  };
}

/** A course variable by its course and name; a deleted course or another organization's is not found. */
export async function resolveCourseVariableSource(
  db: Database,
  input: { organizationId: string; courseId: string; variableName: string },
): Promise<SummarySource> {
  const [row] = await selectCourseVariables(db, {
    organizationId: input.organizationId,
    courseId: input.courseId,
    name: input.variableName,
  });
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  return courseVariableSource(input.organizationId, row);
}

/** A course variable by id. */
export async function resolveVariableSource(
  db: Database,
  input: { organizationId: string; variableId: string },
): Promise<SummarySource> {
  const [row] = await selectCourseVariables(db, {
    organizationId: input.organizationId,
    variableId: input.variableId,
  });
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  return courseVariableSource(input.organizationId, row);
}

/**
 * An agent (chatbot) variable by id, with every value agents captured for
 * it. No comparison with other courses: an agent is not a course.
 */
export async function resolveChatbotVariableSource(
  db: Database,
  input: { organizationId: string; variableId: string },
): Promise<SummarySource> {
  const [row] = await selectChatbotVariables(db, input);
  if (!row) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  const source = chatbotVariableSource(input.organizationId, [row]);
  return {
    kind: 'chatbot_variable',
    key: row.id,
    subject: {
      variableType: 'chatbot',
      variableId: row.id,
      variableName: row.name,
      variableTitle: row.title,
      description: row.description,
      dataType: source.dataType,
      courseId: null,
      courseTitle: null,
    },
    source,
  };
}

/** A ranked learner as the summary names them: the display name and the value as written. */
function rankedLearner(leader: Leader, isDate: boolean): SummaryRankedLearner {
  const value = isDate ? (leader.valueDate?.slice(0, 10) ?? '') : String(leader.valueNumber ?? '');
  return { name: leader.learnerName, value };
}

/**
 * The variable of the same name in the organization's other live courses:
 * learners with a value and their mean (numbers) or share of true
 * (booleans) when the other variable has the same data type.
 */
async function compareOtherCourses(
  db: Database,
  summarySource: SummarySource,
): Promise<SummaryCourseComparison[]> {
  const { subject, source } = summarySource;
  const rows = await selectCourseVariables(db, {
    organizationId: source.organizationId,
    name: subject.variableName,
  });
  const others = rows.filter((row) => row.id !== subject.variableId);
  if (others.length === 0) return [];
  const figures = await getByCourse(db, {
    kind: source.kind,
    organizationId: source.organizationId,
    variableIds: others.map((row) => row.id),
    dataType: subject.dataType,
  });
  const byCourse = new Map(figures.map((figure) => [figure.courseId, figure]));
  return others
    .map((row) => {
      const figure = byCourse.get(row.course_id);
      return {
        courseId: row.course_id,
        courseTitle: row.course_title,
        learners: figure?.learners ?? 0,
        mean: row.data_type === subject.dataType ? (figure?.mean ?? null) : null,
      };
    })
    .sort(
      (a, b) =>
        b.learners - a.learners ||
        a.courseTitle.toLowerCase().localeCompare(b.courseTitle.toLowerCase()) ||
        a.courseId.localeCompare(b.courseId),
    )
    .slice(0, OTHER_COURSES);
}

/**
 * Every figure the engines write from, computed in the database by the
 * metrics layer: the same learners, values, mean and bins the variable
 * report and a custom report show for the variable.
 */
export async function computeStatistics(
  db: Database,
  summarySource: SummarySource,
  now: Date,
): Promise<AiSummaryStatistics> {
  const { source, subject } = summarySource;
  const [usage, summary, weeks, otherCourses] = await Promise.all([
    getUsage(db, source),
    getValueSummary(db, source),
    getTrend(db, source, {
      interval: 'week',
      axis: { kind: 'window', now, buckets: AI_SUMMARY_TREND_WEEKS },
      now,
    }),
    subject.courseId === null ? Promise.resolve([]) : compareOtherCourses(db, summarySource),
  ]);

  const numeric =
    subject.dataType === 'number' && summary.numeric
      ? {
          mean: summary.numeric.mean,
          median: summary.numeric.median,
          // The sample deviation (as the variable report shows) has no value for one learner: 0 spread.
          standardDeviation: summary.numeric.standardDeviation ?? 0,
          min: summary.numeric.min,
          max: summary.numeric.max,
          q1: summary.numeric.q1,
          q3: summary.numeric.q3,
        }
      : null;

  let distribution: SummaryDistribution | null = null;
  let outliers: AiSummaryStatistics['outliers'] = null;
  let topLearners: SummaryRankedLearner[] = [];
  let bottomLearners: SummaryRankedLearner[] = [];

  const dataType = source.dataType;
  const ranked = async () => {
    if (!isRankable(dataType)) return;
    const { highest, lowest } = await getHighestAndLowest(
      db,
      { ...source, dataType },
      AI_SUMMARY_RANKED_LEARNERS,
    );
    topLearners = highest.map((leader) => rankedLearner(leader, dataType === 'date'));
    bottomLearners = lowest.map((leader) => rankedLearner(leader, dataType === 'date'));
  };

  switch (subject.dataType) {
    case 'number': {
      if (numeric) {
        const iqr = numeric.q3 - numeric.q1;
        const fences = { lowerFence: numeric.q1 - 1.5 * iqr, upperFence: numeric.q3 + 1.5 * iqr };
        const [bins, found] = await Promise.all([
          getHistogram(db, source, summary),
          getOutliers(db, source, { ...fences, limit: AI_SUMMARY_NAMED_OUTLIERS }),
          ranked(),
        ]);
        distribution = { kind: 'histogram', bins };
        outliers = {
          ...fences,
          count: found.count,
          learners: found.learners.map((learner) => ({ name: learner.name, value: String(learner.value) })),
        };
      }
      break;
    }
    case 'text': {
      const categories = summary.values > 0 ? await getCategories(db, source, TOP_VALUES) : [];
      const listed = categories.filter((category) => category.value !== null);
      distribution = {
        kind: 'top-values',
        values: listed.map((category) => ({
          value: category.value || '(empty)',
          count: category.count,
          share: summary.values > 0 ? category.count / summary.values : 0,
        })),
        otherCount: categories.find((category) => category.value === null)?.count ?? 0,
      };
      break;
    }
    case 'boolean': {
      const answered = summary.trueCount + summary.falseCount;
      distribution = {
        kind: 'boolean',
        trueCount: summary.trueCount,
        falseCount: summary.falseCount,
        trueRate: answered > 0 ? summary.trueCount / answered : null,
      };
      break;
    }
    case 'date': {
      const { earliest, median, latest } = summary.dates;
      distribution = {
        kind: 'date-range',
        earliest,
        median,
        latest,
        spanDays:
          earliest && latest
            ? (new Date(latest).getTime() - new Date(earliest).getTime()) / 86_400_000
            : null,
      };
      if (earliest) await ranked();
      break;
    }
  }

  const metric: SummaryTrend['metric'] =
    subject.dataType === 'number' ? 'mean' : subject.dataType === 'boolean' ? 'true-rate' : 'values';
  const trendWeeks = weeks.map((week) => ({
    weekStart: `${week.date}T00:00:00.000Z`,
    values: week.count,
    mean: metric === 'values' ? null : week.mean,
    isPartial: week.isPartial,
  }));

  return {
    subject,
    learners: summary.learners,
    values: summary.values,
    recordedValues: usage.recorded,
    definitions: { ...AI_SUMMARY_COUNT_DEFINITIONS },
    distinctValues: summary.distinctValues,
    firstRecordedAt: usage.firstRecordedAt,
    lastRecordedAt: usage.lastRecordedAt,
    numeric,
    distribution,
    trend: { metric, weeks: trendWeeks, ...trendDirection(metric, trendWeeks) },
    outliers,
    topLearners,
    bottomLearners,
    otherCourses,
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
      const content = withoutEmails(normalizeLlmText(text));
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
      const usage = await getUsage(db, source.source);
      const { statistics } = stored.data;
      return {
        content: cached.content,
        engine: cached.engine,
        model: cached.model,
        generatedAt: toIso(cached.generated_at) ?? '',
        notice: stored.data.notice,
        hasNewerData:
          usage.recorded !== statistics.recordedValues || usage.lastRecordedAt !== statistics.lastRecordedAt,
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
