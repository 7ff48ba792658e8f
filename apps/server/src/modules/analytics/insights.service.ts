import {
  ANALYTICS_MESSAGES,
  INSIGHT_MESSAGES,
  INSIGHT_REFRESHES_PER_HOUR,
  ITEM_ANALYSIS_THRESHOLDS,
  addDays,
  localToday,
  type AnalyticsInsight,
  type AnalyticsInsightsResponse,
  type InsightKind,
  type InsightSeverity,
  type InsightStatus,
  type QuestionStatistics,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { takeHits } from '../../plugins/rate-limit';
import { selectOwnerRecipients } from '../organizations/organizations.queries';
import { analyticsBasis, loadAnalyticsScope, type AnalyticsScope } from './analytics-settings.service';
import {
  countInactiveLearners,
  countInsights,
  deleteStaleFindings,
  lockOrganizationInsights,
  markInsightsComputed,
  selectCoursesWithRecentAnswers,
  selectDropOffSlides,
  selectInsight,
  selectInsights,
  selectOrganizationsWithData,
  selectRateComparison,
  selectStoredFindings,
  setInsightDismissed,
  touchFindings,
  upsertFindings,
  type FindingToStore,
  type InsightRow,
} from './insights.queries';
import { getQuestionAnalysis } from './questions.service';
import { hasEnoughSample, twoProportionZTest } from './significance';

/**
 * Insights: findings computed per organization by the scheduled job (and
 * "Refresh now"), each with its evidence, a link to the screen that shows
 * it, a severity and a score to rank by. A finding is named by its
 * fingerprint (kind and subject), so a run updates it instead of adding a
 * twin; findings that no longer hold are removed; a dismissed finding stays
 * dismissed while its evidence stays much the same.
 */

/** The compared periods of rate changes and inactivity, in days. */
export const INSIGHT_PERIOD_DAYS = 30;
/**
 * Rate changes compare periods that end this many days before today: a run
 * started yesterday may still be completed, and counting it as incomplete
 * would read as a drop in every organization.
 */
export const RATE_SETTLE_DAYS = 2;
/** Runs each period needs before a rate change is tested. */
export const MIN_RATE_SAMPLE = 30;
/** A significant change smaller than this (a fraction) is not worth a finding (large samples make tiny changes significant). */
export const MIN_RATE_CHANGE = 0.05;
/** How far back drop-off and question findings look. */
export const FINDING_LOOKBACK_DAYS = 90;
/** Courses whose questions are analysed per run (most recent activity). */
export const MAX_QUESTION_COURSES = 50;
/** Unfinished runs stopping at one slide before it is a finding, and their share of the course's unfinished runs. */
export const MIN_DROP_OFFS = 10;
export const MIN_DROP_OFF_SHARE = 0.2;
/** A question this much (facility) below the mean of the rest of its course is "much harder". */
export const HARD_QUESTION_GAP = 0.25;
/** Inactive learners must rise by this share and count. */
export const MIN_INACTIVE_RISE = 0.2;
export const MIN_INACTIVE_RISE_COUNT = 10;
/** Dismissed findings that stop holding are forgotten after this many days. */
export const DISMISSED_RETENTION_DAYS = 90;

export const DIGEST_SCHEDULE_LABEL = 'Mondays at 08:00 UTC';

const SEVERITY_WEIGHT: Record<InsightSeverity, number> = { critical: 300, warning: 200, info: 100 };

/** A finding as computed, before it is stored. */
export type Finding = FindingToStore;

// ---- formatting ----------------------------------------------------------------------

const percent = (fraction: number) => `${Math.round(fraction * 100)} %`;
const points = (fraction: number) =>
  `${fraction > 0 ? '+' : fraction < 0 ? '−' : ''}${Math.abs(Math.round(fraction * 1000) / 10)} points`;
const count = (value: number) => value.toLocaleString('en-US');
const coefficient = (value: number) => value.toFixed(2).replace('-', '−');
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
const plural = (value: number, one: string, many = `${one}s`) =>
  `${count(value)} ${value === 1 ? one : many}`;

function scoreOf(severity: InsightSeverity, magnitude: number): number {
  return SEVERITY_WEIGHT[severity] + Math.max(0, Math.min(99, magnitude));
}

function questionName(question: QuestionStatistics): string {
  const where = [
    question.slideNumber === null ? null : `slide ${question.slideNumber}`,
    question.questionNumber === null ? null : `question ${question.questionNumber}`,
  ].filter(Boolean);
  const label = question.text?.trim() ? `“${truncate(question.text.trim(), 80)}”` : question.interactionId;
  return where.length > 0 ? `${label} (${where.join(', ')})` : label;
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

// ---- the findings --------------------------------------------------------------------

/** Suspected wrong answer keys and questions much harder than the rest of their course, from the question analysis. */
export function questionFindings(
  course: { id: string; title: string },
  questions: readonly QuestionStatistics[],
): Finding[] {
  const findings: Finding[] = [];
  const link = (questionId: string) => `/analytics/questions?courseId=${course.id}&questionId=${questionId}`;
  const rated = questions.filter(
    (question) =>
      question.facility !== null && question.attempts >= ITEM_ANALYSIS_THRESHOLDS.minAttemptsForFlags,
  );
  for (const question of questions) {
    const flag = question.flags.find((candidate) => candidate.kind === 'answer_key');
    if (!flag) continue;
    const suspect = [...question.options]
      .filter((option) => option.isAnswered && option.isCorrect === false && option.pointBiserial !== null)
      .sort((a, b) => (b.pointBiserial ?? 0) - (a.pointBiserial ?? 0))[0];
    const discrimination = question.discriminationIndex ?? 0;
    findings.push({
      kind: 'answer_key',
      fingerprint: `answer_key:${question.questionId}`,
      severity: 'critical',
      title: `The answer key of ${questionName(question)} in ${course.title} may be wrong`,
      body: `${flag.reason}. Learners who do well on the rest of the course get it wrong more often than those who do badly${
        suspect?.answer ? `, and many of the stronger learners chose “${truncate(suspect.answer, 60)}”` : ''
      }. Check the answer marked correct${question.correctAnswer ? ` (“${truncate(question.correctAnswer, 60)}”)` : ''}.`,
      evidence: {
        figures: [
          { label: 'Attempts', value: count(question.attempts) },
          { label: 'Answered right', value: percent(question.facility ?? 0) },
          { label: 'Discrimination', value: coefficient(discrimination) },
          ...(suspect?.answer
            ? [
                {
                  label: `“${truncate(suspect.answer, 40)}” vs rest score`,
                  value: coefficient(suspect.pointBiserial ?? 0),
                },
              ]
            : []),
        ],
        metrics: {
          attempts: question.attempts,
          facility: question.facility ?? 0,
          discrimination,
        },
        linkLabel: 'Open question analysis',
      },
      link: link(question.questionId),
      score: scoreOf('critical', Math.abs(discrimination) * 100),
      courseId: course.id,
    });
  }
  const flaggedKeys = new Set(findings.map((finding) => finding.fingerprint.slice('answer_key:'.length)));
  if (rated.length >= 3) {
    for (const question of rated) {
      if (flaggedKeys.has(question.questionId)) continue;
      const rest = rated.filter((other) => other.questionId !== question.questionId);
      const restMean = rest.reduce((sum, other) => sum + (other.facility ?? 0), 0) / rest.length;
      const facility = question.facility ?? 0;
      const gap = restMean - facility;
      if (gap < HARD_QUESTION_GAP || facility >= 0.5) continue;
      const severity: InsightSeverity =
        facility < ITEM_ANALYSIS_THRESHOLDS.tooHardFacility ? 'warning' : 'info';
      findings.push({
        kind: 'hard_question',
        fingerprint: `hard_question:${question.questionId}`,
        severity,
        title: `${questionName(question)} is much harder than the rest of ${course.title}`,
        body: `${percent(facility)} of attempts answer it right, against ${percent(restMean)} on average for the course’s other ${rest.length} questions. Check whether it is unclear, covers something the course does not teach, or has the wrong answer marked correct.`,
        evidence: {
          figures: [
            { label: 'Attempts', value: count(question.attempts) },
            { label: 'Answered right', value: percent(facility) },
            { label: 'Rest of the course', value: percent(restMean) },
            { label: 'Gap', value: points(-gap) },
          ],
          metrics: { attempts: question.attempts, facility, gap },
          linkLabel: 'Open question analysis',
        },
        link: link(question.questionId),
        score: scoreOf(severity, gap * 100),
        courseId: course.id,
      });
    }
  }
  return findings;
}

export function dropOffFinding(row: Awaited<ReturnType<typeof selectDropOffSlides>>[number]): Finding | null {
  const share = row.unfinishedWithSlides === 0 ? 0 : row.dropOffs / row.unfinishedWithSlides;
  if (row.dropOffs < MIN_DROP_OFFS || share < MIN_DROP_OFF_SHARE) return null;
  const ofStarted = row.started === 0 ? 0 : row.dropOffs / row.started;
  const severity: InsightSeverity = ofStarted >= 0.25 ? 'warning' : 'info';
  const slide = `slide ${row.slideNumber}${row.slideTitle ? ` “${truncate(row.slideTitle, 60)}”` : ''}`;
  return {
    kind: 'drop_off_slide',
    fingerprint: `drop_off_slide:${row.courseId}`,
    severity,
    title: `Most learners who leave ${row.courseTitle} stop at ${slide}`,
    body: `${plural(row.dropOffs, 'unfinished run')} of ${count(row.unfinishedWithSlides)} (${percent(share)}) last viewed ${slide} before leaving, the most of any slide of the course (it has ${row.lastSlide} slides). That is ${percent(ofStarted)} of the ${plural(row.started, 'run')} started in the last ${FINDING_LOOKBACK_DAYS} days.`,
    evidence: {
      figures: [
        { label: 'Slide', value: `${row.slideNumber} of ${row.lastSlide}` },
        { label: 'Stopped here', value: count(row.dropOffs) },
        { label: 'Of unfinished runs', value: percent(share) },
        { label: 'Of runs started', value: percent(ofStarted) },
      ],
      metrics: { slide: row.slideNumber, share, ofStarted, dropOffs: row.dropOffs },
      linkLabel: 'See where learners exit',
    },
    link: `/analytics/learning-paths?courseId=${row.courseId}`,
    score: scoreOf(severity, ofStarted * 100 + (row.dropOffs >= 100 ? 10 : 0)),
    courseId: row.courseId,
  };
}

type RatePeriods = { previousFrom: string; from: string; to: string };

export function rateChangeFindings(
  row: Awaited<ReturnType<typeof selectRateComparison>>[number],
  periods: RatePeriods,
): Finding[] {
  const findings: Finding[] = [];
  const subject = row.courseTitle ?? 'all courses';
  const rates = [
    {
      metric: 'completion' as const,
      label: 'Completion rate',
      current: { success: row.current.completed, total: row.current.runs },
      previous: { success: row.previous.completed, total: row.previous.runs },
      of: 'runs started',
    },
    {
      metric: 'pass' as const,
      label: 'Pass rate',
      current: { success: row.current.passed, total: row.current.graded },
      previous: { success: row.previous.passed, total: row.previous.graded },
      of: 'runs with a result',
    },
  ];
  for (const rate of rates) {
    const { current, previous } = rate;
    if (!hasEnoughSample(current.success, current.total, previous.success, previous.total, MIN_RATE_SAMPLE)) {
      continue;
    }
    const test = twoProportionZTest(current.success, current.total, previous.success, previous.total);
    const now = current.success / current.total;
    const before = previous.success / previous.total;
    const change = now - before;
    if (!test.significant || Math.abs(change) < MIN_RATE_CHANGE) continue;
    const isDrop = change < 0;
    const severity: InsightSeverity = !isDrop ? 'info' : change <= -0.15 ? 'critical' : 'warning';
    const periodText = `${dayLabel(periods.from)} – ${dayLabel(periods.to)}`;
    const previousText = `${dayLabel(periods.previousFrom)} – ${dayLabel(addDays(periods.from, -1))}`;
    findings.push({
      kind: 'rate_change',
      fingerprint: `rate_change:${rate.metric}:${row.courseId ?? 'all'}`,
      severity,
      title: `${rate.label} of ${subject} ${isDrop ? 'fell' : 'rose'} from ${percent(before)} to ${percent(now)}`,
      body: `${percent(now)} of ${count(current.total)} ${rate.of} (${periodText}) against ${percent(before)} of ${count(previous.total)} in the 30 days before (${previousText}). The change is statistically significant (two-proportion z-test, p ${test.pValue < 0.001 ? '< 0.001' : `= ${test.pValue.toFixed(3)}`}). Runs of the last ${RATE_SETTLE_DAYS} days are left out while they may still finish.`,
      evidence: {
        figures: [
          { label: 'Now', value: `${percent(now)} of ${count(current.total)}` },
          { label: 'Before', value: `${percent(before)} of ${count(previous.total)}` },
          { label: 'Change', value: points(change) },
          { label: 'p-value', value: test.pValue < 0.001 ? '< 0.001' : test.pValue.toFixed(3) },
        ],
        metrics: { now, before, change, pValue: test.pValue, total: current.total },
        linkLabel: row.courseId ? 'See the course’s learners' : 'Compare on the overview',
      },
      link: row.courseId
        ? `/course/${row.courseId}/learners`
        : `/analytics?from=${periods.from}&to=${periods.to}`,
      score: scoreOf(severity, Math.abs(change) * 100 + (row.courseId ? 0 : 10)),
      courseId: row.courseId,
    });
  }
  return findings;
}

export function inactiveFinding(
  days: number,
  now: { inactive: number; known: number },
  then: { inactive: number; known: number },
): Finding | null {
  const rise = now.inactive - then.inactive;
  const relative = then.inactive === 0 ? (rise > 0 ? 1 : 0) : rise / then.inactive;
  if (rise < MIN_INACTIVE_RISE_COUNT || relative < MIN_INACTIVE_RISE) return null;
  const severity: InsightSeverity = relative >= 0.5 ? 'warning' : 'info';
  const shareNow = now.known === 0 ? 0 : now.inactive / now.known;
  const shareThen = then.known === 0 ? 0 : then.inactive / then.known;
  return {
    kind: 'inactive_rising',
    fingerprint: 'inactive_rising',
    severity,
    title: `${count(now.inactive)} learners inactive for ${days} days, up from ${count(then.inactive)} a month ago`,
    body: `${plural(now.inactive, 'learner')} (${percent(shareNow)} of those who had started a course) started no course and answered no question in the last ${days} days. ${INSIGHT_PERIOD_DAYS} days ago it was ${count(then.inactive)} (${percent(shareThen)}). A reminder or a broadcast may bring them back.`,
    evidence: {
      figures: [
        { label: 'Inactive now', value: count(now.inactive) },
        { label: `${INSIGHT_PERIOD_DAYS} days ago`, value: count(then.inactive) },
        {
          label: 'Rise',
          value: then.inactive === 0 ? `+${count(rise)}` : `+${Math.round(relative * 100)} %`,
        },
        { label: 'Share of learners', value: percent(shareNow) },
      ],
      metrics: { inactive: now.inactive, previous: then.inactive, share: shareNow },
      linkLabel: 'See learners',
    },
    link: '/learners',
    score: scoreOf(severity, relative * 50),
    courseId: null,
  };
}

/**
 * Whether a dismissed finding's evidence changed enough to show it again:
 * a different slide, a rate that moved 10 more points or reversed, twice
 * the attempts, inactivity up another quarter.
 */
export function isMaterialChange(
  kind: InsightKind,
  before: Record<string, number>,
  after: Record<string, number>,
): boolean {
  const value = (metrics: Record<string, number>, key: string) => metrics[key] ?? 0;
  const moved = (key: string, by: number) => Math.abs(value(after, key) - value(before, key)) >= by;
  const grew = (key: string, factor: number) => value(after, key) >= value(before, key) * factor;
  switch (kind) {
    case 'answer_key':
      return grew('attempts', 2) || moved('facility', 0.15) || moved('discrimination', 0.2);
    case 'hard_question':
      return grew('attempts', 2) || moved('facility', 0.1);
    case 'drop_off_slide':
      return value(after, 'slide') !== value(before, 'slide') || moved('share', 0.1);
    case 'rate_change':
      return Math.sign(value(after, 'change')) !== Math.sign(value(before, 'change')) || moved('change', 0.1);
    case 'inactive_rising':
      return (
        value(after, 'inactive') >= Math.max(value(before, 'inactive') * 1.25, value(before, 'inactive') + 10)
      );
  }
}

/** Every finding that holds now for the organization, computed from the data (not stored). */
export async function findInsights(
  db: Database,
  scope: AnalyticsScope,
  now: Date = new Date(),
): Promise<Finding[]> {
  const lookback = new Date(now.getTime() - FINDING_LOOKBACK_DAYS * 86_400_000);
  const today = localToday(scope.settings.timeZone, now);
  const to = addDays(today, -RATE_SETTLE_DAYS);
  const from = addDays(to, -(INSIGHT_PERIOD_DAYS - 1));
  const periods = { previousFrom: addDays(from, -INSIGHT_PERIOD_DAYS), from, to };
  const monthAgo = new Date(now.getTime() - INSIGHT_PERIOD_DAYS * 86_400_000);
  const [courses, dropOffs, rates, inactive] = await Promise.all([
    selectCoursesWithRecentAnswers(db, scope.organizationId, lookback, MAX_QUESTION_COURSES),
    // Runs of the last day may still be going on: not yet dropped off.
    selectDropOffSlides(db, scope, { since: lookback, until: new Date(now.getTime() - 86_400_000) }),
    selectRateComparison(db, scope, periods),
    countInactiveLearners(db, scope, { days: scope.settings.inactiveDays, moments: [now, monthAgo] }),
  ]);
  const findings: Finding[] = [];
  // One analysis per course (a few statements each): tens of courses, never one per learner or question.
  for (const course of courses) {
    try {
      const analysis = await getQuestionAnalysis(db, scope, { courseId: course.id });
      findings.push(...questionFindings(course, analysis.questions));
    } catch (error) {
      // A course deleted since it was listed: nothing to find in it.
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
    }
  }
  for (const row of dropOffs) {
    const finding = dropOffFinding(row);
    if (finding) findings.push(finding);
  }
  for (const row of rates) findings.push(...rateChangeFindings(row, periods));
  const [inactiveNow, inactiveThen] = inactive;
  if (inactiveNow && inactiveThen) {
    const finding = inactiveFinding(scope.settings.inactiveDays, inactiveNow, inactiveThen);
    if (finding) findings.push(finding);
  }
  return findings;
}

/**
 * Computes the organization's findings and stores them: new and changed ones
 * written, dismissed ones left dismissed unless their evidence changed
 * materially, the ones that no longer hold removed. Idempotent.
 */
export async function computeInsights(
  db: Database,
  organizationId: string,
  now: Date = new Date(),
): Promise<{ findings: number; removed: number }> {
  const scope = await loadAnalyticsScope(db, organizationId);
  const findings = await findInsights(db, scope, now);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await lockOrganizationInsights(tx, organizationId);
    const stored = new Map(
      (await selectStoredFindings(tx, organizationId)).map((finding) => [finding.fingerprint, finding]),
    );
    const toWrite: Finding[] = [];
    const toKeepDismissed: string[] = [];
    for (const finding of findings) {
      const previous = stored.get(finding.fingerprint);
      if (
        previous?.dismissedAt &&
        !isMaterialChange(finding.kind, previous.evidence.metrics, finding.evidence.metrics)
      ) {
        toKeepDismissed.push(finding.fingerprint);
      } else {
        toWrite.push(finding);
      }
    }
    await upsertFindings(tx, organizationId, toWrite, now);
    await touchFindings(tx, organizationId, toKeepDismissed, now);
    const removed = await deleteStaleFindings(tx, organizationId, now, DISMISSED_RETENTION_DAYS);
    await markInsightsComputed(tx, organizationId, now);
    return { findings: findings.length, removed };
  });
}

/** Organizations with course runs, the ones the scheduled job computes findings for. */
export function listOrganizationsWithData(db: Database): Promise<string[]> {
  return selectOrganizationsWithData(db);
}

// ---- the API -------------------------------------------------------------------------

export function toInsight(row: InsightRow): AnalyticsInsight {
  return {
    id: row.id,
    kind: row.kind,
    severity: row.severity,
    title: row.title,
    body: row.body,
    evidence: row.evidence.figures,
    link: row.link,
    linkLabel: row.evidence.linkLabel,
    score: row.score,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    computedAt: row.computedAt,
    dismissedAt: row.dismissedAt,
  };
}

export async function listInsights(
  db: Database,
  input: { organizationId: string; status: InsightStatus; isEmailConfigured: boolean },
): Promise<AnalyticsInsightsResponse> {
  const scope = await loadAnalyticsScope(db, input.organizationId);
  const [rows, counts, basis] = await Promise.all([
    selectInsights(db, input.organizationId, { status: input.status }),
    countInsights(db, input.organizationId),
    analyticsBasis(db, scope),
  ]);
  return {
    status: input.status,
    insights: rows.map(toInsight),
    counts: { open: counts.open, dismissed: counts.dismissed },
    lastComputedAt: counts.lastComputedAt,
    digest: { isEmailConfigured: input.isEmailConfigured, schedule: DIGEST_SCHEDULE_LABEL },
    basis,
  };
}

/** The most important open findings (the overview's top). */
export async function listTopInsights(db: Database, organizationId: string, limit: number) {
  const [rows, counts] = await Promise.all([
    selectInsights(db, organizationId, { status: 'open', limit }),
    countInsights(db, organizationId),
  ]);
  return { insights: rows.map(toInsight), open: counts.open };
}

async function changeDismissal(
  db: Database,
  input: { organizationId: string; insightId: string; userId: string },
  dismiss: boolean,
): Promise<AnalyticsInsight> {
  const changed = await setInsightDismissed(db, {
    organizationId: input.organizationId,
    insightId: input.insightId,
    dismiss,
    userId: input.userId,
  });
  const row = await selectInsight(db, input.organizationId, input.insightId);
  if (!row) throw new AppError('NOT_FOUND', ANALYTICS_MESSAGES.insightNotFound);
  if (!changed) {
    throw new AppError(
      'CONFLICT',
      dismiss ? INSIGHT_MESSAGES.alreadyDismissed : INSIGHT_MESSAGES.notDismissed,
    );
  }
  return toInsight(row);
}

/** Hides a finding until its evidence changes materially (or it is restored). */
export function dismissInsight(
  db: Database,
  input: { organizationId: string; insightId: string; userId: string },
) {
  return changeDismissal(db, input, true);
}

export function restoreInsight(
  db: Database,
  input: { organizationId: string; insightId: string; userId: string },
) {
  return changeDismissal(db, input, false);
}

/**
 * "Refresh now": computes the organization's findings at once (a few
 * seconds at most on a large organization), a few times an hour.
 */
export async function refreshInsights(
  db: Database,
  input: { organizationId: string; isEmailConfigured: boolean; now?: Date },
): Promise<AnalyticsInsightsResponse> {
  await takeHits(
    db,
    [
      {
        key: `analytics-insights-refresh:${input.organizationId}`,
        limit: INSIGHT_REFRESHES_PER_HOUR,
        windowMs: 3_600_000,
      },
    ],
    'insight refreshes',
  );
  await computeInsights(db, input.organizationId, input.now ?? new Date());
  return listInsights(db, {
    organizationId: input.organizationId,
    status: 'open',
    isEmailConfigured: input.isEmailConfigured,
  });
}

// ---- the weekly digest ---------------------------------------------------------------

export type DigestMail = { to: string[]; subject: string; text: string };
export type DigestMailer = (mail: DigestMail) => Promise<void>;

/** Findings a digest lists. */
export const DIGEST_FINDINGS = 5;

/**
 * Sends the organization's owners the top open findings, each with its
 * link; nothing when there is none (no empty e-mails). Resolves to the
 * number of e-mails sent.
 */
export async function sendInsightDigest(
  db: Database,
  input: { organizationId: string; mailer: DigestMailer; publicUrl: string },
): Promise<number> {
  const { insights, open } = await listTopInsights(db, input.organizationId, DIGEST_FINDINGS);
  if (insights.length === 0) return 0;
  const { organizationName, emails } = await selectOwnerRecipients(db, input.organizationId);
  if (emails.length === 0) return 0;
  const base = input.publicUrl.replace(/\/+$/, '');
  const lines = insights.flatMap((insight, index) => [
    `${index + 1}. ${insight.title}`,
    `   ${insight.evidence.map((figure) => `${figure.label}: ${figure.value}`).join(' · ')}`,
    `   ${insight.linkLabel}: ${base}${insight.link}`,
    '',
  ]);
  const more = open - insights.length;
  const text = [
    `This week's analytics findings for ${organizationName}:`,
    '',
    ...lines,
    more > 0
      ? `${plural(more, 'more finding')}: ${base}/analytics/insights`
      : `All findings: ${base}/analytics/insights`,
    '',
    'You get this e-mail as an owner of the organization on CourseLens.',
  ].join('\n');
  const subject = `${organizationName}: ${plural(open, 'analytics finding')} this week`;
  // One e-mail per owner, so no owner sees the others' addresses.
  for (const email of emails) await input.mailer({ to: [email], subject, text });
  return emails.length;
}
