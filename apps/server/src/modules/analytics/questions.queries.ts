import { MAX_ANSWER_OPTIONS, type AnalyticsSettings, type ItemAnalysisAttempts } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { executeWithMemory } from '../../db/execute-with-memory';
import { courseRunQuestions, courseRuns, courses, questions } from '../../db/schema';
import { learnerIncluded, runCompleted, withinLocalDays } from './analytics-filters.queries';

// Question analysis reads the facts as ingestion writes them, in the same
// transaction as the acknowledgement (`course_runs`, `course_run_questions`),
// never the rollups: an answer is in the analysis as soon as it is stored.
//
// One statement does the heavy part: it picks the analysed attempts, keeps
// each question's last answer in each of them, and sums per question what
// the formulas of `item-statistics.ts` need (counts, sums, cross-products
// with the attempt's total, and small histograms). Only those sums leave the
// database: a few hundred rows whatever the number of learners.

/** Memory for the statement's sorts and hashes (a course of 100 000 learners needs about 100 MB). */
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
 * Which of a learner's runs with answers are analysed, as a condition on the
 * window columns of `ranked`: its rank among the learner's runs by start
 * (`run_rank`), how many runs the learner has (`learner_runs`) and the rank
 * of the learner's earliest highest-scoring run (`best_rank`).
 */
function analysedCondition(attempts: ItemAnalysisAttempts): SQL {
  switch (attempts) {
    case 'first':
      return sql`run_rank = 1`;
    case 'last':
      return sql`run_rank = learner_runs`;
    case 'highest':
      // A tie goes to the earlier run: the one that reached the score first.
      return sql`run_rank = best_rank`;
    case 'all':
      return sql`true`;
  }
}

/**
 * The windows `analysedCondition` reads, as the CTE `ranked`: the last and
 * highest attempts need the learner's number of runs and best total; the
 * first and all attempts need nothing more than `run_answers` has.
 */
function pickingWindows(attempts: ItemAnalysisAttempts): SQL {
  if (attempts === 'first' || attempts === 'all') return sql`ranked as (select * from run_answers),`;
  return sql`
    learner_runs as (
      select la.*,
        max(run_rank) over (partition by learner_id) as learner_runs,
        max(total) over (partition by learner_id) as best_total
      from run_answers la
    ),
    ranked as (
      select lr.*,
        min(case when total = best_total then run_rank end) over (partition by learner_id) as best_rank
      from learner_runs lr
    ),`;
}

/**
 * The sums of a course's quiz in one statement. The analysed attempts are
 * the finished runs (completion rule of the settings) of included learners
 * that started in the period and hold at least one answer, picked per
 * learner by `itemAnalysisAttempts`. A question's mark in a run is its last
 * answer's points, else 1 for right and 0 for wrong; hidden questions are
 * left out. The attempts that did not answer a question appear in no
 * per-question row: the service adds them (mark 0) from the attempt totals.
 */
export async function selectQuizSums(
  db: Database,
  org: string,
  settings: AnalyticsSettings,
  courseId: string,
  period: QuestionAnalysisPeriod,
): Promise<AnalysisRow[]> {
  // The answers of a large course are sorted once (see below); with the default 4 MB PostgreSQL would
  // sort 100 000 learners' answers on disk. Compiling the statement (JIT) would take longer than it saves
  // on a few hundred thousand rows.
  return executeWithMemory<AnalysisRow>(db, quizSumsStatement(org, settings, courseId, period), {
    workMem: QUIZ_SUMS_WORK_MEM,
    jit: false,
  });
}

/**
 * The statement of {@link selectQuizSums}, on its own for the benchmark's
 * `EXPLAIN ANALYZE`. The answers are sorted once, by learner, run start,
 * run and question (newest answer first), in parallel workers: the last
 * answer of a question in a run is then the first of its group (DISTINCT
 * ON), and one window over the learner's runs gives the run's total, its
 * rank and its first row; the last and highest attempts add windows over
 * the same order. So PostgreSQL sorts 100 000 learners' answers a single
 * time and never materializes them; what is grouped afterwards is a few
 * hundred rows (question × mark × total × answer).
 */
export function quizSumsStatement(
  org: string,
  settings: AnalyticsSettings,
  courseId: string,
  period: QuestionAnalysisPeriod,
): SQL {
  // The finished runs as a condition on an alias of course_runs.
  const finished = (alias: string) => {
    const r = sql.raw(alias);
    return sql`${r}.organization_id = ${org} and ${r}.course_id = ${courseId}
        and ${runCompleted(settings, org, alias)}
        and ${learnerIncluded(settings, org, sql`${r}.learner_id`)}
        and ${withinLocalDays(settings, sql`${r}.started_at`, period)}`;
  };
  return sql`
    with last_answers as (
      -- A question answered twice in a run counts its last answer: the first of its (run, question) in this
      -- order. The runs are joined from the table rather than from a CTE: PostgreSQL then knows that a run
      -- id is unique, hashes the runs rather than the answers, and reads and sorts in parallel workers.
      select distinct on (f.learner_id, f.started_at, a.course_run_id, a.question_id)
        f.learner_id, f.started_at, a.course_run_id as run_id, a.question_id, a.answer_choice,
        coalesce(a.points_assigned, case when a.correct then 1 else 0 end)::float8 as mark,
        (a.points_assigned is not null or a.correct is not null) as is_graded
      from ${courseRunQuestions} a
      join ${courseRuns} f on ${finished('f')} and f.id = a.course_run_id
      -- The course's answers less those of its few inactive questions, not a join with the active ones:
      -- PostgreSQL estimates a course's answers well but one question's as the average question's, and a
      -- large course's were then read question by question in random heap order (twice the time).
      where a.organization_id = ${org} and a.course_id = ${courseId}
        and a.question_id <> all(array(select q.id from ${questions} q
          where q.organization_id = ${org} and q.course_id = ${courseId} and not q.active))
      order by f.learner_id, f.started_at, a.course_run_id, a.question_id, a.created_at desc, a.id desc
    ),
    run_answers as (
      -- One window over the learner's runs in order, a run's answers being peers: the run's total (its
      -- frame is the run, added up in question order as before), the run's rank among the learner's runs,
      -- and whether the row is its run's first.
      select la.*,
        sum(mark) over learner_run as total,
        lag(run_id) over learner_run is distinct from run_id as is_run_head,
        dense_rank() over learner_run as run_rank
      from last_answers la
      window learner_run as (partition by learner_id order by started_at, run_id
        range between current row and current row)
    ),
${pickingWindows(settings.itemAnalysisAttempts)}    base as (
      select question_id, mark, total, answer_choice,
        ${analysedCondition(settings.itemAnalysisAttempts)} as is_analysed,
        is_run_head, run_rank = 1 as is_first_run,
        count(*)::int as n, (count(*) filter (where is_graded))::int as graded
      from ranked
      group by 1, 2, 3, 4, 5, 6, 7
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
      from (select b.*, b.total - b.mark as rest from base b where b.is_analysed) analysed
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
    where r.grouping_id <> 14 or r.option_rank <= ${MAX_ANSWER_OPTIONS}
    union all
    select 'attempt_total', null, total, null, sum(n)::int, null, null, null, null, null, null, null, null,
      null, null, null, null, null, null, null, null
    from base where is_analysed and is_run_head group by total
    union all
    select 'meta', null, null, null, 0, null, null, null, null, null, null, null, null,
      null, null, null, null, null,
      (select coalesce(sum(n), 0)::int from base where is_analysed and is_run_head and
        ${settings.itemAnalysisAttempts === 'all' ? sql`is_first_run` : sql`true`}),
      ((select count(*) from ${courseRuns} r where ${finished('r')})
        - (select coalesce(sum(n), 0) from base where is_run_head))::int,
      (select count(*)::int from ${questions} h
        where h.organization_id = ${org} and h.course_id = ${courseId} and not h.active)`;
}
