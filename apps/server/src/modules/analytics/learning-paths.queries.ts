import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { idInRange, splitIdRange, type IdRange } from '../../db/id-ranges';
import { inLearnerParts, learnerInPart, learnerPartsOf, type LearnerPart } from '../../db/learner-parts';
import { executeKept } from '../metrics/result-cache';
import {
  courseLastSlide,
  isAllTime,
  learnerIncluded,
  liveCourseIds,
  runCompleted,
  withinLocalDays,
} from './analytics-filters.queries';
import type { HeatmapScope, Period } from './heatmaps.queries';

// Paths are computed in the database: a run's slide views in order
// (occurred_at, then id), consecutive repeats collapsed, numbered as steps,
// cut at the depth, and grouped. One query answers the whole screen (runs,
// top paths, Sankey links, exits, slide titles and the drop-off after a
// slide) from one pass over the course's slide views, read index-only; the
// runs are grouped by their sequence before anything is counted or
// unnested, so the counting works on a few rows per distinct path.

/** The rows of a Sankey's links: `to_key` null is the "…" beyond the depth. */
export type LinkRow = { step: number; from_key: string; to_key: string | null; value: number | string };
export type PathRow = { path: string[]; is_truncated: boolean; runs: number | string };
export type CountRow = { slide_number: number; runs: number | string };

export type SlidePathsRow = {
  has_slide_views: boolean;
  runs: number | string;
  incomplete: number | string;
  top_paths: PathRow[] | string | null;
  links: LinkRow[] | string | null;
  exits: CountRow[] | string | null;
  slides: { slide_number: number; title: string | null }[] | string | null;
  drop_runs: number | string | null;
  drop_exits: CountRow[] | string | null;
  drop_paths: PathRow[] | string | null;
};

/**
 * Whether a run (its course_runs row `r`, null when the views carry no run,
 * and its highest slide `max_slide`) completed under the settings' rule. The
 * last-slide rule compares with the course's highest slide viewed, kept per
 * course (one lookup for the statement).
 */
function completedRun(scope: HeatmapScope, courseId: string): SQL {
  if (scope.settings.completion !== 'last_slide') {
    return sql`coalesce(${runCompleted(scope.settings, scope.organizationId, 'r')}, false)`;
  }
  return sql`(runs.max_slide >= ${courseLastSlide(scope.organizationId, sql`${courseId}::uuid`)})`;
}

/**
 * JSON of the `limit` most frequent paths of `source` (which has path, length), with ties broken by the path.
 * `runs` counts a row of `source` (a run, a learner) or reads how many it stands for.
 */
function topPaths(source: SQL, depth: number, limit: number, runs: SQL = sql`count(*)`): SQL {
  const d = depthLiteral(depth);
  return sql`(select coalesce(json_agg(t order by t.runs desc, t.path), '[]'::json) from (
      select path, length > ${d} as is_truncated, ${runs} as runs
      from ${source} group by path, length > ${d}
      order by ${runs} desc, path limit ${limit}) t)`;
}

/**
 * The depth written into the SQL as a number: the same expression
 * (`length > 8`) appears in a select list and its GROUP BY, which PostgreSQL
 * matches only when both are the same literal, never two parameters.
 */
function depthLiteral(depth: number): SQL {
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError('depth must be a positive whole number');
  return sql.raw(String(depth));
}

/** JSON of the Sankey's links from `source` (path, length): step k to k + 1, and the last step to "…". */
function pathLinks(source: SQL, depth: number, runs: SQL = sql`count(*)`): SQL {
  const d = depthLiteral(depth);
  return sql`(select coalesce(json_agg(t), '[]'::json) from (
         select k as step, path[k] as from_key, path[k + 1] as to_key, ${runs} as value
         from ${source}, generate_series(1, cardinality(path) - 1) as k
         group by k, path[k], path[k + 1]
         union all
         select ${d} as step, path[${d}] as from_key, null as to_key, ${runs} as value
         from ${source} where length > ${d}
         group by path[${d}]) t)`;
}

function exitCounts(source: SQL, runs: SQL = sql`count(*)`): SQL {
  return sql`(select coalesce(json_agg(t order by t.runs desc, t.slide_number), '[]'::json) from (
      select last_slide as slide_number, ${runs} as runs from ${source}
      group by last_slide) t)`;
}

/**
 * Memory for the paths statement: the runs' sequences grouped by hash (one
 * entry per distinct sequence, at most one per run: some tens of MB for
 * 100 000 runs) and the views without a run sorted per learner.
 * PostgreSQL's default (4 MB) would spill them to disk.
 */
const SLIDE_PATHS_WORK_MEM = '64MB' as const;

/**
 * How many of a slide's latest views are read in full (with their titles)
 * to name it: its title is that of its latest view that is a step (not a
 * repeat of the view before it in its run) and has one, almost always the
 * latest view itself. A slide none of them names falls back to every view
 * (see `titleCtes`).
 */
const TITLE_CANDIDATES = 20;

/** The course's slide views (alias `e`) in the period, of learners the settings count. */
function slideViews(scope: HeatmapScope, courseId: string, period: Period, e: string): SQL {
  const v = sql.raw(e);
  return sql`${v}.organization_id = ${scope.organizationId} and ${v}.course_id = ${courseId}
    and ${v}.type = 'slide.viewed' and ${v}.slide_number is not null
    and ${withinLocalDays(scope.settings, sql`${v}.occurred_at`, period)}
    and ${learnerIncluded(scope.settings, scope.organizationId, sql`${v}.learner_id`)}`;
}

/**
 * One row per run: the slides it viewed in order (`views`, repeats
 * included) and its highest slide. Views that carry a run are read run by
 * run in the order of `learning_events_slide_path_idx` (run, time, id), so
 * the grouping sorts nothing but each run's own few views; views without a
 * run (the learner had none when they arrived) form one run per learner.
 *
 * Building each run's sequence is most of the statement's time, in one
 * process. With more than one range of run ids (`runRanges`), the runs are
 * built in one branch per range, which PostgreSQL's parallel workers take
 * one each, every branch reading only its range of the index (at 100 000
 * learners about 300 ms against 650 for one branch; shares of the learners
 * by hash, which every branch reads whole to keep its share, took 410 to
 * 480). PGlite has no workers, so it reads them in one branch.
 */
function runViews(scope: HeatmapScope, courseId: string, period: Period, runRanges: readonly IdRange[]): SQL {
  // The views reach the aggregate in order (the subquery's sort, which the index gives per partition and
  // a merge keeps across them), so `array_agg` takes them in that order: PostgreSQL 15 would sort each
  // run's views again for `array_agg(... order by ...)`, about a quarter of the branch's time. A subquery
  // with an ORDER BY is never flattened into its reader, and an aggregate adds its rows in input order.
  const branch = (runId: SQL, key: string, hasRun: SQL) => sql`
      select ${runId} as run_id, array_agg(e.slide_number) as views, max(e.slide_number) as max_slide
      from (
        select e.${sql.raw(key)}, e.slide_number from learning_events e
        where ${slideViews(scope, courseId, period, 'e')} and ${hasRun}
        order by e.${sql.raw(key)}, e.occurred_at, e.id) e
      group by e.${sql.raw(key)}`;
  const withRun = runRanges.map((range) =>
    branch(sql`e.run_id`, 'run_id', sql`e.run_id is not null and ${idInRange(sql`e.run_id`, range)}`),
  );
  return sql.join(
    [...withRun, branch(sql`null::uuid`, 'learner_id', sql`e.run_id is null`)],
    sql`
      union all
      `,
  );
}

/**
 * The ranges of run ids the paths statement builds its runs in: one per
 * share the database is set to (`learnerPartsOf`), splitting the span of the
 * course's run ids with slide views, found at both ends of the course's
 * path index (a few index probes, whatever the period), kept as the
 * statement's rows are.
 */
async function selectRunRanges(db: Database, scope: HeatmapScope, courseId: string): Promise<IdRange[]> {
  const parts = learnerPartsOf(db);
  if (parts <= 1) return [{}];
  const end = (order: SQL) => sql`(
    select e.run_id from learning_events e
    where e.organization_id = ${scope.organizationId} and e.course_id = ${courseId}
      and e.type = 'slide.viewed' and e.slide_number is not null and e.run_id is not null
    order by e.run_id ${order} limit 1)`;
  const [row] = await executeKept<{ lowest: string | null; highest: string | null }>(
    db,
    scope.organizationId,
    sql`select ${end(sql`asc`)} as lowest, ${end(sql`desc`)} as highest`,
  );
  return row?.lowest && row.highest ? splitIdRange(row.lowest, row.highest, parts) : [{}];
}

/**
 * The CTEs naming the slides of `sequences`: each slide's title is that of
 * its latest step with one. `slide_titles` reads a slide's latest
 * `TITLE_CANDIDATES` views from the course index, newest first, and takes
 * the first with a title that is a step (the view before it in its run,
 * found in the path index, shows another slide). Only a slide none of those
 * name (no titles sent, or only repeats) is looked up in `all_titles`,
 * which collapses every view of the period with its title and is computed
 * only then.
 */
function titleCtes(scope: HeatmapScope, courseId: string, period: Period): SQL {
  const hasTitle = (title: SQL) => sql`(${title} is not null and btrim(${title}) <> '')`;
  const before = sql`${slideViews(scope, courseId, period, 'p')} and (p.occurred_at, p.id) < (c.occurred_at, c.id)`;
  const previous = sql`case when c.run_id is not null then (
        select p.slide_number from learning_events p
        where ${before} and p.run_id = c.run_id
        order by p.occurred_at desc, p.id desc limit 1)
      else (
        select p.slide_number from learning_events p
        where ${before} and p.run_id is null and p.learner_id = c.learner_id
        order by p.occurred_at desc, p.id desc limit 1) end`;
  return sql`slide_titles as materialized (
      select n.slide_number, (
        select c.slide_title from (
          select e.run_id, e.learner_id, e.slide_title, e.occurred_at, e.id
          from learning_events e
          where ${slideViews(scope, courseId, period, 'e')} and e.slide_number = n.slide_number
          order by e.occurred_at desc limit ${TITLE_CANDIDATES}) c
        where ${hasTitle(sql`c.slide_title`)} and ${previous} is distinct from n.slide_number
        order by c.occurred_at desc limit 1) as title
      from (select distinct unnest(steps) as slide_number from sequences) n
    ), all_titles as materialized (
      select slide_number, (array_agg(slide_title order by occurred_at desc)
                            filter (where ${hasTitle(sql`slide_title`)}))[1] as title
      from (
        select e.slide_number, e.slide_title, e.occurred_at,
               lag(e.slide_number) over (partition by coalesce(e.run_id, e.learner_id) order by e.occurred_at, e.id) as previous
        from learning_events e
        where ${slideViews(scope, courseId, period, 'e')}
      ) views
      where previous is distinct from slide_number
      group by slide_number
    )`;
}

export async function selectSlidePaths(
  db: Database,
  scope: HeatmapScope,
  input: { courseId: string; period: Period; depth: number; limit: number; afterSlide: number | undefined },
): Promise<SlidePathsRow> {
  const { organizationId } = scope;
  const { courseId, period, depth, limit, afterSlide } = input;
  const hasAfter = afterSlide !== undefined;
  const d = depthLiteral(depth);
  // Runs with the same sequence and verdict are one row from here on: the
  // paths, links and exits are counted over those rows (weighted by `runs`),
  // far fewer than the runs, and the slides are unnested from them.
  const weight = sql`sum(runs)::bigint`;
  const paths = sql`(select steps[1:${d}]::text[] as path, cardinality(steps) as length, runs from sequences) p`;
  const runRanges = await selectRunRanges(db, scope, courseId);
  const statement = sql`
    with runs as (
      ${runViews(scope, courseId, period, runRanges)}
    ), viewed as (
      select views, ${completedRun(scope, courseId)} as is_complete, count(*) as runs
      from runs
      left join course_runs r on r.organization_id = ${organizationId} and r.course_id = ${courseId}
        and r.id = runs.run_id
      group by views, 2
    ), sequences as materialized (
      -- A run's steps: its views with consecutive repeats collapsed, worked out once per distinct sequence.
      select array(select u.slide from unnest(v.views) with ordinality as u(slide, i)
                   where u.i = 1 or u.slide <> v.views[u.i - 1] order by u.i) as steps,
             is_complete, sum(runs)::bigint as runs
      from viewed v
      group by 1, 2
    ), incomplete as materialized (
      select steps, steps[cardinality(steps)] as last_slide, runs from sequences where not is_complete
    ), dropped as materialized (
      select steps[array_position(steps, ${afterSlide ?? null}::int):]::text[] as after_steps,
             last_slide, runs
      from incomplete where ${hasAfter ? sql`array_position(steps, ${afterSlide}::int) is not null` : sql`false`}
    ), ${titleCtes(scope, courseId, period)}
    select
      exists (select 1 from learning_events x
              where x.organization_id = ${organizationId} and x.course_id = ${courseId}
                and x.type = 'slide.viewed') as has_slide_views,
      (select coalesce(sum(runs), 0)::bigint from sequences) as runs,
      (select coalesce(sum(runs), 0)::bigint from incomplete) as incomplete,
      ${topPaths(paths, depth, limit, weight)} as top_paths,
      ${pathLinks(paths, depth, weight)} as links,
      ${exitCounts(sql`incomplete`, weight)} as exits,
      (select coalesce(json_agg(t order by t.slide_number), '[]'::json) from (
         select s.slide_number,
                coalesce(s.title, (select a.title from all_titles a where a.slide_number = s.slide_number)) as title
         from slide_titles s) t) as slides,
      ${hasAfter ? sql`(select coalesce(sum(runs), 0)::bigint from dropped)` : sql`null::bigint`} as drop_runs,
      ${hasAfter ? exitCounts(sql`dropped`, weight) : sql`null::json`} as drop_exits,
      ${
        hasAfter
          ? topPaths(
              sql`(select after_steps[1:${d}] as path, cardinality(after_steps) as length, runs from dropped) d`,
              depth,
              limit,
              weight,
            )
          : sql`null::json`
      } as drop_paths`;
  // The fallback for titles (`all_titles`) is costed as if it always ran, which would have PostgreSQL
  // spend most of a second compiling the statement (JIT) for a plan that runs in a fraction of that.
  const [row] = await executeKept<SlidePathsRow>(db, scope.organizationId, statement, {
    workMem: SLIDE_PATHS_WORK_MEM,
    jit: false,
  });
  if (!row) throw new Error('The paths query returned no row');
  return row;
}

export type CoursePathsRow = {
  learners: number | string;
  top_paths: PathRow[] | string | null;
  links: LinkRow[] | string | null;
  courses: { id: string; title: string }[] | string | null;
};

/**
 * Memory for the course sequences: every learner's (course, first start)
 * pairs of the period sorted by learner (230 000 at 100 000 learners, about
 * 12 MB), which PostgreSQL's default (4 MB) sorted on disk.
 */
const COURSE_PATHS_WORK_MEM = '64MB' as const;

/**
 * Each included learner (of the share `part`) and their first start of each
 * live course in the period (`learner_id, course, first_start`), the course
 * as its place in `courseIds` (1-based). Over all time that is the
 * learner-course rollup's first start (one row per pair, 230 000 at 100 000
 * learners); a period needs the runs, grouped per pair (270 000 runs, about
 * 170 ms more).
 */
function firstStarts(
  scope: HeatmapScope,
  period: Period,
  courseIds: readonly string[],
  part: LearnerPart | undefined,
): SQL {
  const { organizationId } = scope;
  const included = (learnerId: SQL) => sql`${learnerIncluded(scope.settings, organizationId, learnerId)}
    and ${learnerInPart(learnerId, part)}`;
  const live = sql`unnest(${sql.param([...courseIds])}::uuid[]) with ordinality as lc(id, course)`;
  if (isAllTime(period)) {
    return sql`
      select l.learner_id, lc.course::int as course, l.first_started_at as first_start
      from course_learners l
      join ${live} on lc.id = l.course_id
      where l.organization_id = ${organizationId} and l.first_started_at is not null
        and ${included(sql`l.learner_id`)}`;
  }
  return sql`
    select r.learner_id, lc.course::int as course, min(r.started_at) as first_start
    from course_runs r
    join ${live} on lc.id = r.course_id
    where r.organization_id = ${organizationId}
      and ${withinLocalDays(scope.settings, sql`r.started_at`, period)}
      and ${included(sql`r.learner_id`)}
    group by r.learner_id, lc.course`;
}

/** Learners with the same course path (places in the live courses, cut at the depth) and length. */
type JudgedRow = { path: number[]; length: number | string; learners: number | string };

/**
 * Course sequences: for each learner, the organization's live courses in
 * the order of their first start in the period, cut at the depth; grouped
 * into paths and Sankey links.
 *
 * Most of the work is putting each learner's courses in order, so it runs
 * per share of the learners (db/learner-parts.ts), side by side: each share
 * returns its learners grouped by path and length (a few hundred rows),
 * which add up. A course is its place in the live courses (by id) until
 * then: ordering, collecting and hashing small numbers rather than ids as
 * text took about a sixth less at 100 000 learners, and two shares on two
 * cores about a third less again. A last small statement counts the paths,
 * links and courses over the added-up rows.
 */
export async function selectCoursePaths(
  db: Database,
  scope: HeatmapScope,
  input: { period: Period; depth: number; limit: number },
): Promise<CoursePathsRow> {
  const { organizationId } = scope;
  const { depth, limit } = input;
  const live = await db.execute<{ id: string }>(sql`${liveCourseIds(organizationId)} order by c.id`);
  const courseIds = live.rows.map((row) => row.id);
  const shares = await inLearnerParts(db, (part) =>
    executeKept<JudgedRow>(
      db,
      organizationId,
      sql`
      with firsts as (${firstStarts(scope, input.period, courseIds, part)}), paths as (
        select array_agg(course order by first_start, course) as sequence, count(*) as length
        from firsts group by learner_id
      )
      select sequence[1:${depthLiteral(depth)}] as path, length, count(*) as learners
      from paths group by 1, 2`,
      { workMem: COURSE_PATHS_WORK_MEM },
    ),
  );
  const judged = new Map<string, { path: string; length: number; learners: number }>();
  for (const row of shares.flat()) {
    const path = row.path.map((place) => courseIds[place - 1] ?? '').join(',');
    const key = `${path} ${row.length}`;
    const total = judged.get(key);
    if (total) total.learners += Number(row.learners);
    else judged.set(key, { path, length: Number(row.length), learners: Number(row.learners) });
  }
  const rows = [...judged.values()];
  // Learners with the same path and length are one row from here on: the paths, links and courses are
  // counted over those rows, weighted by `learners`.
  const weight = sql`sum(learners)::bigint`;
  const [counted] = await executeKept<CoursePathsRow>(
    db,
    organizationId,
    sql`
    with judged as materialized (
      select string_to_array(j.path, ',') as path, j.length, j.learners
      from unnest(${sql.param(rows.map((row) => row.path))}::text[],
                  ${sql.param(rows.map((row) => row.length))}::bigint[],
                  ${sql.param(rows.map((row) => row.learners))}::bigint[]) as j(path, length, learners)
    )
    select
      (select coalesce(sum(learners), 0)::bigint from judged) as learners,
      ${topPaths(sql`judged`, depth, limit, weight)} as top_paths,
      ${pathLinks(sql`judged`, depth, weight)} as links,
      (select coalesce(json_agg(json_build_object('id', c.id, 'title', c.course_title) order by c.course_title), '[]'::json)
       from courses c
       where c.organization_id = ${organizationId} and not c.is_deleted
         and c.id::text in (select unnest(path) from judged)) as courses`,
  );
  if (!counted) throw new Error('The course paths query returned no row');
  return counted;
}
