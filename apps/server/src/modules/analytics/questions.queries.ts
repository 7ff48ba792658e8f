import { MAX_ANSWER_OPTIONS, type AnalyticsSettings, type ItemAnalysisAttempts } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { executeKept } from '../metrics/result-cache';
import { courseRunQuestions, courseRuns, courses, questions, runAnswerSheets } from '../../db/schema';
import { inLearnerParts, learnerInPart, type LearnerPart } from '../../db/learner-parts';
import { learnerIncluded, runCompleted, withinLocalDays } from './analytics-filters.queries';

// Question analysis reads the runs and their answer sheets (each question's
// last answer in the run, kept in the transaction that writes the answers,
// see `runAnswerSheets`): an answer is in the analysis as soon as it is
// stored.
//
// One statement does the heavy part: it picks the analysed attempts and
// sums per question what the formulas of `item-statistics.ts` need (counts,
// sums, cross-products with the attempt's total, and small histograms). Only
// those sums leave the database: a few hundred rows whatever the number of
// learners.

/** Memory for the statement's hashes (a course of 100 000 learners needs about 60 MB). */
const QUIZ_SUMS_WORK_MEM = '128MB' as const;

export type QuestionAnalysisPeriod = { from?: string | undefined; to?: string | undefined };

export type LiveCourseRow = { id: string; title: string };

/** The organization's live course, or undefined. */
export async function selectLiveCourse(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<LiveCourseRow | undefined> {
  const result = await db.execute<LiveCourseRow>(sql`
    select id, course_title as title from ${courses}
    where organization_id = ${organizationId} and id = ${courseId} and not is_deleted`);
  return result.rows[0];
}

export type AnalysisCourseRow = { id: string; title: string; questions: number; has_answers: boolean };

/** The organization's live courses by title, with their visible questions and whether any answer exists. */
export async function selectAnalysisCourses(
  db: Database,
  organizationId: string,
): Promise<AnalysisCourseRow[]> {
  const result = await db.execute<AnalysisCourseRow>(sql`
    select c.id, c.course_title as title,
      (select count(*)::int from ${questions} q
        where q.organization_id = c.organization_id and q.course_id = c.id and q.active) as questions,
      exists (select 1 from ${courseRunQuestions} a
        where a.organization_id = c.organization_id and a.course_id = c.id) as has_answers
    from ${courses} c
    where c.organization_id = ${organizationId} and not c.is_deleted
    order by lower(c.course_title), c.id`);
  return result.rows;
}

/**
 * One row of the analysis statement. `kind` says which sum it is:
 * - `question`: a question's sums over the attempts that answered it
 *   (with its stored numbers and text);
 * - `mark`, `rest`, `total`: one bin of a question's histogram of marks,
 *   of rests (total − mark) and of totals, over those attempts;
 * - `option`: one answer of a question (the `MAX_ANSWER_OPTIONS` most
 *   frequent), with `option_groups` distinct answers in all;
 * - `attempt_total`: one bin of the histogram of every analysed attempt's total;
 * - `meta`: the learners analysed, the finished runs without answers and the hidden questions.
 */
export type AnalysisRow = {
  kind: 'question' | 'mark' | 'rest' | 'total' | 'option' | 'attempt_total' | 'meta';
  question_id: string | null;
  value: number | null;
  answer: string | null;
  n: number;
  sum_mark: number | null;
  sum_mark_squared: number | null;
  sum_mark_total: number | null;
  sum_total: number | null;
  sum_rest: number | null;
  max_mark: number | null;
  graded: number | null;
  option_groups: number | null;
  interaction_id: string | null;
  slide_number: number | null;
  question_number: number | null;
  question_text: string | null;
  correct_answer: string | null;
  learners: number | null;
  runs_without_answers: number | null;
  hidden_questions: number | null;
};

/**
 * The analysed attempts among the finished runs with answers (`sheets`),
 * picked per learner: the earliest run, the latest, the highest total (a
 * tie goes to the earlier run: the one that reached the score first), or
 * every run.
 */
function analysedRuns(attempts: ItemAnalysisAttempts): SQL {
  if (attempts === 'all') return sql`select * from sheets`;
  const order = {
    first: sql`started_at, run_id`,
    last: sql`started_at desc, run_id desc`,
    highest: sql`total desc, started_at, run_id`,
  }[attempts];
  return sql`select distinct on (learner_id) * from sheets order by learner_id, ${order}`;
}

/**
 * Answers per question each share returns when the statement runs in
 * shares: enough for any choice, matching or ordering question; a question
 * with more (free text) makes the statement run whole.
 */
export const OPTIONS_PER_SHARE = 1000;

/**
 * The sums of a course's quiz in one statement. The analysed attempts are
 * the finished runs (completion rule of the settings) of included learners
 * that started in the period and hold at least one answer, picked per
 * learner by `itemAnalysisAttempts`. A question's mark in a run is its last
 * answer's points, else 1 for right and 0 for wrong; hidden questions are
 * left out. The attempts that did not answer a question appear in no
 * per-question row: the service adds them (mark 0) from the attempt totals.
 *
 * Attempts are picked per learner, so every sum adds up over disjoint
 * shares of the learners: where the server runs statements in shares
 * (db/learner-parts.ts) each share returns its sums with up to
 * `OPTIONS_PER_SHARE` answers per question, and they are added up here. A
 * question with more distinct answers than that in some share (free text)
 * cannot be added up exactly from them: the statement then runs whole.
 */
export async function selectQuizSums(
  db: Database,
  org: string,
  settings: AnalyticsSettings,
  courseId: string,
  period: QuestionAnalysisPeriod,
  optionsPerShare: number = OPTIONS_PER_SHARE,
): Promise<AnalysisRow[]> {
  // Compiling the statement (JIT) would take longer than it saves on a few hundred thousand rows. PostgreSQL
  // guesses a few entries per sheet and a couple of hundred attempts whatever the course, so it would group
  // a large course's half a million entries by sorting them: hashing them takes a third of the time. In
  // shares, each statement runs in one process: the shares already take a core each, and parallel workers
  // on top only queued for the same cores and passed every wide sheet through their queues (about
  // 520 ms p50 against 440 at 100 000 learners on two cores).
  const run = (part: LearnerPart | undefined, optionLimit: number) =>
    executeKept<AnalysisRow>(
      db,
      org,
      quizSumsStatement(org, settings, courseId, period, { part, optionLimit }),
      {
        workMem: QUIZ_SUMS_WORK_MEM,
        jit: false,
        sort: false,
        parallel: part === undefined,
      },
    );
  const shares = await inLearnerParts(db, (part) => run(part, part ? optionsPerShare : MAX_ANSWER_OPTIONS));
  if (shares.length === 1 && shares[0]) return shares[0];
  const leftOut = shares.some((rows) =>
    rows.some((row) => row.kind === 'option' && Number(row.option_groups) > optionsPerShare),
  );
  if (leftOut) return run(undefined, MAX_ANSWER_OPTIONS);
  return rankOptions(db, addQuizShares(shares));
}

const SUMMED = [
  'n',
  'sum_mark',
  'sum_mark_squared',
  'sum_mark_total',
  'sum_total',
  'sum_rest',
  'graded',
] as const;

/**
 * The rows of the whole statement from those of disjoint shares of the
 * learners: sums added per kind, question and bin (per answer for the
 * options), the highest mark kept, the learners and runs of `meta` added.
 * Every answer of every question is kept (each share returned all of its
 * own), with `option_groups` the distinct answers over the shares; cutting
 * them to the most frequent is `rankOptions`.
 */
export function addQuizShares(shares: readonly (readonly AnalysisRow[])[]): AnalysisRow[] {
  const byKey = new Map<string, AnalysisRow>();
  for (const rows of shares) {
    for (const row of rows) {
      const key = JSON.stringify([
        row.kind,
        row.question_id,
        row.kind === 'option' ? row.answer : row.value === null ? null : Number(row.value),
      ]);
      const total = byKey.get(key);
      if (!total) {
        byKey.set(key, { ...row });
        continue;
      }
      const sums: Record<(typeof SUMMED)[number], number | null> = total;
      for (const column of SUMMED) {
        const [a, b] = [total[column], row[column]];
        sums[column] = a === null && b === null ? null : Number(a ?? 0) + Number(b ?? 0);
      }
      if (row.max_mark !== null) {
        total.max_mark =
          total.max_mark === null ? row.max_mark : Math.max(Number(total.max_mark), Number(row.max_mark));
      }
      if (row.kind === 'meta') {
        total.learners = Number(total.learners ?? 0) + Number(row.learners ?? 0);
        total.runs_without_answers =
          Number(total.runs_without_answers ?? 0) + Number(row.runs_without_answers ?? 0);
      }
    }
  }
  const merged = [...byKey.values()];
  const answers = new Map<string, number>();
  for (const row of merged) {
    if (row.kind === 'option' && row.question_id)
      answers.set(row.question_id, (answers.get(row.question_id) ?? 0) + 1);
  }
  for (const row of merged) {
    if (row.kind === 'option' && row.question_id) row.option_groups = answers.get(row.question_id) ?? 0;
  }
  return merged;
}

/**
 * Keeps each question's `MAX_ANSWER_OPTIONS` most frequent answers, ties
 * broken as the whole statement breaks them (by the answer in the
 * database's collation, no answer last): the database ranks them, in one
 * small statement, only when some question has more.
 */
async function rankOptions(db: Database, rows: AnalysisRow[]): Promise<AnalysisRow[]> {
  const options = rows.filter((row) => row.kind === 'option');
  const crowded = new Set(
    options
      .filter((row) => Number(row.option_groups) > MAX_ANSWER_OPTIONS)
      .map((row) => row.question_id as string),
  );
  if (crowded.size === 0) return rows;
  const ranked = options.filter((row) => crowded.has(row.question_id as string));
  const result = await db.execute<{ i: number }>(sql`
    select i from (
      select t.i, row_number() over (partition by t.question_id order by t.n desc, t.answer nulls last) as option_rank
      from unnest(${sql.param(ranked.map((row) => row.question_id))}::uuid[],
                  ${sql.param(ranked.map((row) => row.answer))}::text[],
                  ${sql.param(ranked.map((row) => Number(row.n)))}::int[])
           with ordinality as t(question_id, answer, n, i)
    ) r
    where option_rank <= ${MAX_ANSWER_OPTIONS}`);
  const kept = new Set(result.rows.map((row) => ranked[Number(row.i) - 1]));
  return rows.filter(
    (row) => row.kind !== 'option' || !crowded.has(row.question_id as string) || kept.has(row),
  );
}

/**
 * Joins each finished run `f` to its answer sheet (a run has at most one), unless the sheet holds only
 * hidden questions. The whole course hashes its sheets, each read once. A share of the learners probes
 * its own runs' sheets by key instead: a hash would read every sheet of the course in each share. At
 * 100 000 learners, p50: in two shares on PostgreSQL, hashing 440 ms and probing 395; the whole course
 * on PGlite, hashing 720 ms and probing 900.
 */
function sheetOfRun(org: string, courseId: string, hiddenIds: SQL, part: LearnerPart | undefined): SQL {
  if (!part) {
    return sql`left join ${runAnswerSheets} s on s.organization_id = ${org} and s.course_id = ${courseId}
        and s.course_run_id = f.id and not s.question_ids <@ ${hiddenIds}`;
  }
  return sql`left join lateral (
        select s.question_ids, s.marks, s.answers, s.graded, s.total from ${runAnswerSheets} s
        where s.organization_id = ${org} and s.course_run_id = f.id and s.course_id = ${courseId}
          and not s.question_ids <@ ${hiddenIds}
        limit 1) s on true`;
}

/**
 * The statement of {@link selectQuizSums}, on its own for the benchmark's
 * `EXPLAIN ANALYZE`. A run's sheet has one entry per question it answered,
 * so nothing is sorted by run or question: the finished runs are joined
 * with their sheets by a hash, the attempts picked per learner among those
 * (a sort of one row per run), and their entries grouped by question, mark,
 * total and answer: a few hundred groups. Hidden questions are left out of
 * the entries and of the totals; a run that answered only hidden questions
 * is not an attempt.
 */
export function quizSumsStatement(
  org: string,
  settings: AnalyticsSettings,
  courseId: string,
  period: QuestionAnalysisPeriod,
  shares: { part?: LearnerPart | undefined; optionLimit: number } = { optionLimit: MAX_ANSWER_OPTIONS },
): SQL {
  // The hidden questions' ids, computed once (an init plan) wherever they are read.
  const hiddenIds = sql`(select ids from hidden)::uuid[]`;
  return sql`
    with hidden as (
      select coalesce(array_agg(q.id), '{}') as ids from ${questions} q
      where q.organization_id = ${org} and q.course_id = ${courseId} and not q.active
    ),
    finished as (
      -- Every finished run, with its sheet when it answered a visible question. The runs without one are
      -- counted from the same scan.
      select f.id as run_id, f.learner_id, f.started_at, s.question_ids, s.marks, s.answers, s.graded,
        case when cardinality(${hiddenIds}) = 0 then s.total
          else (select sum(e.mark order by e.question_id) from unnest(s.question_ids, s.marks) as e(question_id, mark)
                where e.question_id <> all(${hiddenIds})) end as total
      from ${courseRuns} f
      ${sheetOfRun(org, courseId, hiddenIds, shares.part)}
      where f.organization_id = ${org} and f.course_id = ${courseId} and ${runCompleted(settings, org, 'f')}
        and ${learnerIncluded(settings, org, sql`f.learner_id`)}
        and ${withinLocalDays(settings, sql`f.started_at`, period)}
        and ${learnerInPart(sql`f.learner_id`, shares.part)}
    ),
    sheets as (select * from finished where question_ids is not null),
    analysed as (${analysedRuns(settings.itemAnalysisAttempts)}),
    attempt_totals as (select total, count(*)::int as n from analysed group by total),
    base as (
      -- A sheet's entries by position: one unnest and subscripts cost two thirds of unnesting four arrays.
      select e.question_id, a.marks[e.i] as mark, a.total, a.answers[e.i] as answer_choice,
        count(*)::int as n, (count(*) filter (where a.graded[e.i]))::int as graded
      from analysed a
      cross join lateral unnest(a.question_ids) with ordinality as e(question_id, i)
      where e.question_id <> all(${hiddenIds})
      group by 1, 2, 3, 4
    ),
    sums as (
      select question_id, mark, rest, total, answer_choice,
        grouping(mark, rest, total, answer_choice) as grouping_id,
        sum(n)::int as n,
        sum(mark * n)::float8 as sum_mark,
        sum(mark * mark * n)::float8 as sum_mark_squared,
        sum(mark * total * n)::float8 as sum_mark_total,
        sum(total * n)::float8 as sum_total,
        sum(rest * n)::float8 as sum_rest,
        max(mark)::float8 as max_mark,
        sum(graded)::int as graded
      from (select b.*, b.total - b.mark as rest from base b) with_rest
      group by grouping sets ((question_id), (question_id, mark), (question_id, rest), (question_id, total),
        (question_id, answer_choice))
    ),
    ranked_sums as (
      select s.*,
        case when grouping_id = 14 then
          row_number() over (partition by question_id, grouping_id order by n desc, answer_choice nulls last) end
          as option_rank,
        case when grouping_id = 14 then count(*) over (partition by question_id, grouping_id) end as option_groups
      from sums s
    )
    select
      case grouping_id when 15 then 'question' when 7 then 'mark' when 11 then 'rest' when 13 then 'total'
        else 'option' end as kind,
      r.question_id,
      (case grouping_id when 7 then r.mark when 11 then r.rest when 13 then r.total end)::float8 as value,
      r.answer_choice as answer, r.n, r.sum_mark, r.sum_mark_squared, r.sum_mark_total, r.sum_total, r.sum_rest,
      r.max_mark, r.graded, r.option_groups::int as option_groups,
      q.interaction_id, q.slide_number, q.question_number, q.question_text, q.correct_answer,
      null::int as learners, null::int as runs_without_answers, null::int as hidden_questions
    from ranked_sums r
    left join ${questions} q on r.grouping_id = 15 and q.organization_id = ${org} and q.id = r.question_id
    where r.grouping_id <> 14 or r.option_rank <= ${shares.optionLimit}
    union all
    select 'attempt_total', null, total, null, n, null, null, null, null, null, null, null, null,
      null, null, null, null, null, null, null, null
    from attempt_totals
    union all
    select 'meta', null, null, null, 0, null, null, null, null, null, null, null, null,
      null, null, null, null, null,
      -- One attempt per learner, but with every run analysed a learner may have several.
      ${
        settings.itemAnalysisAttempts === 'all'
          ? sql`(select count(distinct learner_id)::int from analysed)`
          : sql`(select coalesce(sum(n), 0)::int from attempt_totals)`
      },
      (select (count(*) - count(question_ids))::int from finished),
      (select cardinality(ids) from hidden)`;
}
