import {
  AI_SUMMARY_TREND_WEEKS,
  type AiSummaryStatistics,
  type SummaryRankedLearner,
  type SummaryTrend,
} from '@courselens/contracts';
import { withoutEmails } from '../metrics/privacy';

// The two engines of the AI summary (architecture guide, "AI features
// without a model"). Both read the same statistics, computed in SQL: the
// built-in engine turns them into sentences by rules (deterministic, works
// offline), the LLM engine hands them to a model as JSON with instructions.
// Content is plain text: paragraphs separated by blank lines, bullets as
// lines starting with "- " (what the page renders, without any HTML).

// ---- formatting -------------------------------------------------------------------

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

function formatPercent(rate: number): string {
  return percentFormat.format(rate);
}

/** `3 Jan 2026` in UTC, whatever the server's locale and zone. */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** `a`, `a and b`, `a, b and c`. */
function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function rankedValue(learner: SummaryRankedLearner, isDate: boolean): string {
  const value = isDate
    ? formatDay(learner.value)
    : Number.isFinite(Number(learner.value))
      ? formatNumber(Number(learner.value))
      : learner.value;
  return `${learner.name} (${value})`;
}

function variableLabel(statistics: AiSummaryStatistics): string {
  const { subject } = statistics;
  const title = subject.variableTitle?.trim();
  const name =
    title && title !== subject.variableName
      ? `“${title}” (${subject.variableName})`
      : `“${subject.variableName}”`;
  return subject.courseTitle ? `${name} in ${subject.courseTitle}` : name;
}

// ---- trend ------------------------------------------------------------------------

/**
 * The direction of a weekly series: compares the first and the last week
 * that had values. A change within the tolerance is "flat": 5% of the larger
 * of the two for means, 5 points for rates, 20% for counts of values (weekly
 * counts are noisy). The current week is not over, so it is not comparable
 * (a few days' count reads as a fall, a few values' mean as a swing): it is
 * left out.
 */
export function trendDirection(
  metric: SummaryTrend['metric'],
  weeks: SummaryTrend['weeks'],
): Pick<SummaryTrend, 'direction' | 'from' | 'to'> {
  const points = weeks
    .filter((week) => week.values > 0 && !week.isPartial)
    .map((week) => (metric === 'values' ? week.values : week.mean))
    .filter((value): value is number => value !== null);
  const from = points[0];
  const to = points.at(-1);
  if (points.length < 2 || from === undefined || to === undefined) {
    return { direction: 'not-enough-data', from: from ?? null, to: to ?? null };
  }
  const tolerance =
    metric === 'true-rate'
      ? 0.05
      : metric === 'values'
        ? 0.2 * Math.max(from, to)
        : 0.05 * Math.max(Math.abs(from), Math.abs(to));
  const change = to - from;
  const direction = Math.abs(change) <= tolerance ? 'flat' : change > 0 ? 'up' : 'down';
  return { direction, from, to };
}

// ---- the built-in engine ------------------------------------------------------------

function overview(statistics: AiSummaryStatistics): string {
  const label = variableLabel(statistics);
  const { learners, values, recordedValues, firstRecordedAt, lastRecordedAt } = statistics;
  const period =
    firstRecordedAt && lastRecordedAt
      ? formatDay(firstRecordedAt) === formatDay(lastRecordedAt)
        ? ` on ${formatDay(firstRecordedAt)}`
        : ` between ${formatDay(firstRecordedAt)} and ${formatDay(lastRecordedAt)}`
      : '';
  const perCourse =
    values !== learners
      ? ` Counting one latest value per learner and course, that is ${plural(values, 'value')}.`
      : '';
  const intro = `${label}: ${plural(learners, 'learner')} ${learners === 1 ? 'has' : 'have'} a value, from ${plural(recordedValues, 'value')} recorded${period}.${perCourse}`;
  if (learners === 1) {
    return `${intro} With a single learner this describes one person, not a group: read it as a snapshot.`;
  }
  return `${intro} Figures below use each learner's latest value; the trend uses every value recorded.`;
}

function numberParagraphs(statistics: AiSummaryStatistics): string[] {
  const numeric = statistics.numeric;
  if (!numeric) {
    return [
      `None of the latest values is a number, although the variable is numeric, so there is no average or spread to report.`,
    ];
  }
  const paragraphs: string[] = [];
  if (statistics.learners === 1 || numeric.min === numeric.max) {
    paragraphs.push(
      statistics.learners === 1
        ? `The value is ${formatNumber(numeric.mean)}.`
        : `Every learner has the same value, ${formatNumber(numeric.mean)}: there is no spread.`,
    );
  } else {
    const sentences = [
      `The average latest value is ${formatNumber(numeric.mean)} and the median ${formatNumber(numeric.median)} (half of the learners are at or below it).`,
      `Values range from ${formatNumber(numeric.min)} to ${formatNumber(numeric.max)}; the middle half lies between ${formatNumber(numeric.q1)} and ${formatNumber(numeric.q3)}, and the standard deviation is ${formatNumber(numeric.standardDeviation)}.`,
    ];
    const gap = numeric.mean - numeric.median;
    if (numeric.standardDeviation > 0 && Math.abs(gap) > 0.2 * numeric.standardDeviation) {
      sentences.push(
        gap < 0
          ? 'The average sits below the median: a few low values pull it down.'
          : 'The average sits above the median: a few high values pull it up.',
      );
    }
    paragraphs.push(sentences.join(' '));
  }

  const distribution = statistics.distribution;
  if (distribution?.kind === 'histogram' && distribution.bins.length > 1) {
    const total = distribution.bins.reduce((sum, bin) => sum + bin.count, 0);
    const fullest = distribution.bins.reduce((best, bin) => (bin.count > best.count ? bin : best));
    if (total > 0) {
      paragraphs.push(
        `The most crowded range is ${fullest.label}, with ${plural(fullest.count, 'learner')} (${formatPercent(fullest.count / total)}).`,
      );
    }
  }

  const outliers = statistics.outliers;
  if (outliers && statistics.learners >= 4) {
    if (outliers.count === 0) {
      paragraphs.push(
        'No value lies unusually far from the rest (beyond 1.5 interquartile ranges from the middle half).',
      );
    } else {
      const named = outliers.learners.map((learner) => rankedValue(learner, false));
      const more = outliers.count - named.length;
      // Name only the side(s) where values actually lie beyond the fence.
      const sides = [
        ...(numeric.min < outliers.lowerFence ? [`below ${formatNumber(outliers.lowerFence)}`] : []),
        ...(numeric.max > outliers.upperFence ? [`above ${formatNumber(outliers.upperFence)}`] : []),
      ];
      paragraphs.push(
        `${plural(outliers.count, 'learner')} ${outliers.count === 1 ? 'is' : 'are'} unusually far from the rest (${sides.join(' or ')}): ${listOf([...named, ...(more > 0 ? [plural(more, 'other')] : [])])}.`,
      );
    }
  }
  return paragraphs;
}

function textParagraphs(statistics: AiSummaryStatistics): string[] {
  const distribution = statistics.distribution;
  if (distribution?.kind !== 'top-values' || distribution.values.length === 0) return [];
  if (statistics.distinctValues === statistics.learners && statistics.learners > distribution.values.length) {
    return [
      `Every learner's latest value is different (${plural(statistics.distinctValues, 'distinct value')}), so no common answer stands out: this reads like free text.`,
    ];
  }
  if (statistics.distinctValues === 1) {
    const only = distribution.values[0];
    return only ? [`Every learner has the same value: “${only.value}”.`] : [];
  }
  const lines = distribution.values.map(
    (entry) => `- “${entry.value}”: ${plural(entry.count, 'learner')} (${formatPercent(entry.share)})`,
  );
  const rest =
    distribution.otherCount > 0 ? [`- other values: ${plural(distribution.otherCount, 'learner')}`] : [];
  return [
    `There ${statistics.distinctValues === 1 ? 'is' : 'are'} ${plural(statistics.distinctValues, 'distinct value')}. The most common:`,
    [...lines, ...rest].join('\n'),
  ];
}

function booleanParagraphs(statistics: AiSummaryStatistics): string[] {
  const distribution = statistics.distribution;
  if (distribution?.kind !== 'boolean') return [];
  const answered = distribution.trueCount + distribution.falseCount;
  if (answered === 0 || distribution.trueRate === null) {
    return ['None of the latest values reads as yes or no, so there is no rate to report.'];
  }
  const unreadable = statistics.learners - answered;
  const sentences = [
    `${formatNumber(distribution.trueCount)} of ${plural(answered, 'learner')} (${formatPercent(distribution.trueRate)}) have “yes” as their latest value and ${formatNumber(distribution.falseCount)} ${distribution.falseCount === 1 ? 'has' : 'have'} “no”.`,
  ];
  if (unreadable > 0) sentences.push(`${plural(unreadable, 'other value')} could not be read as yes or no.`);
  if (answered > 1 && (distribution.trueRate === 1 || distribution.trueRate === 0)) {
    sentences.push('Everyone gives the same answer.');
  }
  return [sentences.join(' ')];
}

function dateParagraphs(statistics: AiSummaryStatistics): string[] {
  const distribution = statistics.distribution;
  if (distribution?.kind !== 'date-range' || !distribution.earliest || !distribution.latest) {
    return ['None of the latest values is a date, so there is no range to report.'];
  }
  if (
    distribution.earliest === distribution.latest ||
    formatDay(distribution.earliest) === formatDay(distribution.latest)
  ) {
    return [`Every date is ${formatDay(distribution.earliest)}.`];
  }
  const median = distribution.median ? `; the median date is ${formatDay(distribution.median)}` : '';
  const span = distribution.spanDays !== null ? ` (${plural(Math.round(distribution.spanDays), 'day')})` : '';
  return [
    `The dates run from ${formatDay(distribution.earliest)} to ${formatDay(distribution.latest)}${span}${median}.`,
  ];
}

function rankingParagraph(statistics: AiSummaryStatistics): string[] {
  const isDate = statistics.subject.dataType === 'date';
  if (statistics.learners < 2 || statistics.topLearners.length === 0) return [];
  const highest = isDate ? 'Most recent' : 'Highest';
  const lowest = isDate ? 'Earliest' : 'Lowest';
  // The two lists never share a learner (the metrics layer splits a small group between them).
  const lines = [
    `- ${highest}: ${listOf(statistics.topLearners.map((learner) => rankedValue(learner, isDate)))}`,
    ...(statistics.bottomLearners.length > 0
      ? [`- ${lowest}: ${listOf(statistics.bottomLearners.map((learner) => rankedValue(learner, isDate)))}`]
      : []),
  ];
  return [lines.join('\n')];
}

const TREND_SUBJECT: Record<SummaryTrend['metric'], { name: string; format: (value: number) => string }> = {
  mean: { name: 'weekly average', format: formatNumber },
  'true-rate': { name: 'weekly share of “yes”', format: formatPercent },
  values: { name: 'number of values per week', format: formatNumber },
};

function trendParagraph(statistics: AiSummaryStatistics): string {
  const { trend } = statistics;
  const recorded = trend.weeks.reduce((sum, week) => sum + week.values, 0);
  const activeWeeks = trend.weeks.filter((week) => week.values > 0).length;
  const window = `the last ${AI_SUMMARY_TREND_WEEKS} weeks`;
  if (recorded === 0) return `No values were recorded in ${window}, so there is no recent trend.`;
  const intro = `In ${window}, ${plural(recorded, 'value')} ${recorded === 1 ? 'was' : 'were'} recorded, in ${plural(activeWeeks, 'week')}.`;
  const subject = TREND_SUBJECT[trend.metric];
  if (trend.direction === 'not-enough-data' || trend.from === null || trend.to === null) {
    return `${intro} That is too few weeks to tell a direction.`;
  }
  const from = subject.format(trend.from);
  const to = subject.format(trend.to);
  switch (trend.direction) {
    case 'up':
      return `${intro} The ${subject.name} rose from ${from} to ${to}.`;
    case 'down':
      return `${intro} The ${subject.name} fell from ${from} to ${to}.`;
    case 'flat':
      return `${intro} The ${subject.name} held steady (${from} in the first of those weeks, ${to} in the last).`;
  }
}

function comparisonParagraph(statistics: AiSummaryStatistics): string[] {
  const others = statistics.otherCourses;
  const { subject } = statistics;
  if (others.length === 0) return [];
  const isRate = subject.dataType === 'boolean';
  const format = isRate ? formatPercent : formatNumber;
  const described = others.map((course) =>
    course.mean === null
      ? `${course.courseTitle} (${plural(course.learners, 'learner')})`
      : `${course.courseTitle} (${isRate ? `${format(course.mean)} yes` : `mean ${format(course.mean)}`}, ${plural(course.learners, 'learner')})`,
  );
  const sentences = [
    `The same variable exists in ${plural(others.length, 'other course')}: ${listOf(described)}.`,
  ];
  const own =
    subject.dataType === 'number'
      ? (statistics.numeric?.mean ?? null)
      : subject.dataType === 'boolean' && statistics.distribution?.kind === 'boolean'
        ? statistics.distribution.trueRate
        : null;
  const comparable = others.filter((course) => course.mean !== null && course.learners > 0);
  if (own !== null && comparable.length > 0) {
    const weight = comparable.reduce((sum, course) => sum + course.learners, 0);
    const elsewhere =
      comparable.reduce((sum, course) => sum + (course.mean ?? 0) * course.learners, 0) / weight;
    const tolerance = isRate ? 0.05 : 0.05 * Math.max(Math.abs(own), Math.abs(elsewhere));
    const relation =
      Math.abs(own - elsewhere) <= tolerance ? 'close to' : own > elsewhere ? 'above' : 'below';
    sentences.push(
      `Here the ${isRate ? 'share of “yes”' : 'mean'} is ${format(own)}, ${relation} the ${format(elsewhere)} of those courses taken together.`,
    );
  }
  return [sentences.join(' ')];
}

/**
 * The built-in engine: a narrative from the statistics by fixed rules, the
 * same words for the same figures. It says only what the numbers show.
 */
export function writeBuiltinSummary(statistics: AiSummaryStatistics): string {
  if (statistics.learners === 0) {
    const label = variableLabel(statistics);
    return [
      `${label}: no learner has a value yet, so there is nothing to summarize.`,
      'Once the course records values for this variable, regenerate the summary to read about them.',
    ].join('\n\n');
  }
  const byType: Record<AiSummaryStatistics['subject']['dataType'], (s: AiSummaryStatistics) => string[]> = {
    number: numberParagraphs,
    text: textParagraphs,
    boolean: booleanParagraphs,
    date: dateParagraphs,
  };
  const paragraphs = [
    overview(statistics),
    ...byType[statistics.subject.dataType](statistics),
    ...rankingParagraph(statistics),
    trendParagraph(statistics),
    ...comparisonParagraph(statistics),
  ];
  return paragraphs.join('\n\n');
}

// ---- the LLM engine ----------------------------------------------------------------

export const LLM_SUMMARY_SYSTEM = [
  'You write short summaries of learning data for the managers of an online course.',
  'You receive statistics about one variable (a value that the course records for each learner) as JSON.',
  'Write 3 to 6 short paragraphs in plain English: what the values look like (count, average, median, spread or most common values),',
  'the trend over recent weeks, unusual values, the highest and lowest learners, and how other courses compare.',
  'Use only the figures in the JSON; never invent a number, a name or a cause. Say so when the data is too thin to conclude.',
  'Mention learners only by the names given. Plain text only: no headings, no bold, no tables; a list may use lines starting with "- ".',
].join(' ');

/** The prompt of the LLM engine: the statistics as JSON, with any e-mail address hidden (the model must never see one). */
export function buildLlmPrompt(statistics: AiSummaryStatistics): string {
  return withoutEmails(
    [
      `Summarize the variable described by these statistics (computed ${statistics.computedAt}; "definitions" says what each count counts).`,
      'Statistics:',
      JSON.stringify(statistics, null, 2),
    ].join('\n'),
  );
}

const MAX_CONTENT_LENGTH = 8000;

/** The model's text as the page shows it: no Markdown emphasis or headings, bounded length. */
export function normalizeLlmText(text: string): string {
  const cleaned = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line
        .replace(/^#{1,6}\s+/, '')
        .replace(/^\s*[*•]\s+/, '- ')
        .replace(/\*\*|__/g, '')
        .trimEnd(),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return cleaned.length > MAX_CONTENT_LENGTH ? `${cleaned.slice(0, MAX_CONTENT_LENGTH - 1)}…` : cleaned;
}
