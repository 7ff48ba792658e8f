import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { learnerIncluded, runCompleted, withinLocalDays } from './analytics-filters.queries';
import type { HeatmapScope, Period } from './heatmaps.queries';

// Paths are computed in the database: a run's slide views in order
// (occurred_at, then id), consecutive repeats collapsed with lag(), numbered
// as steps, cut at the depth, and grouped. One query answers the whole
// screen (runs, top paths, Sankey links, exits, slide titles and the
// drop-off after a slide) from one pass over the course's slide views.

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
 * last-slide rule compares with the course's highest slide viewed, read
 * once for the course here rather than once per run.
 */
function completedRun(scope: HeatmapScope, courseId: string): SQL {
  if (scope.settings.completion !== 'last_slide') {
    return sql`coalesce(${runCompleted(scope.settings, scope.organizationId, 'r')}, false)`;
  }
  return sql`(runs.max_slide >= (
    select max(mx.slide_number) from learning_events mx
    where mx.organization_id = ${scope.organizationId} and mx.course_id = ${courseId} and mx.type = 'slide.viewed'))`;
}

/** JSON of the `limit` most frequent paths of `source` (which has path, length), with ties broken by the path. */
function topPaths(source: SQL, depth: number, limit: number): SQL {
  const d = depthLiteral(depth);
  return sql`(select coalesce(json_agg(t order by t.runs desc, t.path), '[]'::json) from (
      select path, length > ${d} as is_truncated, count(*) as runs
      from ${source} group by path, length > ${d}
      order by count(*) desc, path limit ${limit}) t)`;
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
function pathLinks(source: SQL, depth: number): SQL {
  const d = depthLiteral(depth);
  return sql`(select coalesce(json_agg(t), '[]'::json) from (
         select k as step, path[k] as from_key, path[k + 1] as to_key, count(*) as value
         from ${source}, generate_series(1, cardinality(path) - 1) as k
         group by k, path[k], path[k + 1]
         union all
         select ${d} as step, path[${d}] as from_key, null as to_key, count(*) as value
         from ${source} where length > ${d}
         group by path[${d}]) t)`;
}

function exitCounts(source: SQL): SQL {
  return sql`(select coalesce(json_agg(t order by t.runs desc, t.slide_number), '[]'::json) from (
      select last_slide as slide_number, count(*) as runs from ${source}
      group by last_slide) t)`;
}

export async function selectSlidePaths(
  db: Database,
  scope: HeatmapScope,
  input: { courseId: string; period: Period; depth: number; limit: number; afterSlide: number | undefined },
): Promise<SlidePathsRow> {
  const { organizationId } = scope;
  const { courseId, depth, limit, afterSlide } = input;
  const hasAfter = afterSlide !== undefined;
  const result = await db.execute<SlidePathsRow>(sql`
    with views as (
      select coalesce(e.run_id, e.learner_id) as run_key, e.run_id, e.slide_number, e.slide_title, e.occurred_at, e.id,
             lag(e.slide_number) over (partition by coalesce(e.run_id, e.learner_id) order by e.occurred_at, e.id) as previous
      from learning_events e
      where e.organization_id = ${organizationId} and e.course_id = ${courseId} and e.type = 'slide.viewed'
        and e.slide_number is not null
        and ${withinLocalDays(scope.settings, sql`e.occurred_at`, input.period)}
        and ${learnerIncluded(scope.settings, organizationId, sql`e.learner_id`)}
    ), steps as (
      select run_key, run_id, slide_number, slide_title, occurred_at,
             row_number() over (partition by run_key order by occurred_at, id) as step
      from views where previous is distinct from slide_number
    ), numbered as (
      select steps.*,
             ${hasAfter ? sql`min(step) filter (where slide_number = ${afterSlide}) over (partition by run_key)` : sql`null::bigint`} as after_step
      from steps
    ), runs as (
      select run_key, (array_agg(run_id))[1] as run_id,
             array_agg(slide_number::text order by step) filter (where step <= ${depth}) as path,
             max(step) as length,
             (array_agg(slide_number order by step desc))[1] as last_slide,
             max(slide_number) as max_slide,
             min(after_step) as after_step,
             array_agg(slide_number::text order by step)
               filter (where step >= after_step and step < after_step + ${depth}) as after_path
      from numbered group by run_key
    ), judged as materialized (
      select runs.*, ${completedRun(scope, courseId)} as is_complete
      from runs
      left join course_runs r on r.organization_id = ${organizationId} and r.id = runs.run_id
    ), incomplete as materialized (
      select * from judged where not is_complete
    ), dropped as materialized (
      select path, length, last_slide, after_path, length - after_step + 1 as after_length
      from incomplete where after_step is not null
    )
    select
      exists (select 1 from learning_events x
              where x.organization_id = ${organizationId} and x.course_id = ${courseId}
                and x.type = 'slide.viewed') as has_slide_views,
      (select count(*) from judged) as runs,
      (select count(*) from incomplete) as incomplete,
      ${topPaths(sql`judged`, depth, limit)} as top_paths,
      ${pathLinks(sql`judged`, depth)} as links,
      ${exitCounts(sql`incomplete`)} as exits,
      (select coalesce(json_agg(t order by t.slide_number), '[]'::json) from (
         select slide_number, (array_agg(slide_title order by occurred_at desc)
                               filter (where slide_title is not null and btrim(slide_title) <> ''))[1] as title
         from steps group by slide_number) t) as slides,
      ${hasAfter ? sql`(select count(*) from dropped)` : sql`null::bigint`} as drop_runs,
      ${hasAfter ? exitCounts(sql`dropped`) : sql`null::json`} as drop_exits,
      ${
        hasAfter
          ? topPaths(sql`(select after_path as path, after_length as length from dropped) d`, depth, limit)
          : sql`null::json`
      } as drop_paths`);
  const row = result.rows[0];
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
 * Course sequences: for each learner, the organization's live courses in
 * the order of their first start in the period, cut at the depth; grouped
 * into paths and Sankey links in the same query.
 */
export async function selectCoursePaths(
  db: Database,
  scope: HeatmapScope,
  input: { period: Period; depth: number; limit: number },
): Promise<CoursePathsRow> {
  const { organizationId } = scope;
  const { depth, limit } = input;
  const result = await db.execute<CoursePathsRow>(sql`
    with firsts as (
      select r.learner_id, r.course_id, min(r.started_at) as first_start
      from course_runs r
      join courses c on c.organization_id = r.organization_id and c.id = r.course_id and not c.is_deleted
      where r.organization_id = ${organizationId}
        and ${withinLocalDays(scope.settings, sql`r.started_at`, input.period)}
        and ${learnerIncluded(scope.settings, organizationId, sql`r.learner_id`)}
      group by r.learner_id, r.course_id
    ), paths as materialized (
      select learner_id,
             array_agg(course_id::text order by first_start, course_id) as sequence,
             count(*) as length
      from firsts group by learner_id
    ), judged as materialized (
      select learner_id, sequence[1:${depthLiteral(depth)}] as path, length from paths
    )
    select
      (select count(*) from judged) as learners,
      ${topPaths(sql`judged`, depth, limit)} as top_paths,
      ${pathLinks(sql`judged`, depth)} as links,
      (select coalesce(json_agg(json_build_object('id', c.id, 'title', c.course_title) order by c.course_title), '[]'::json)
       from courses c
       where c.organization_id = ${organizationId} and not c.is_deleted
         and c.id::text in (select unnest(path) from judged)) as courses`);
  const row = result.rows[0];
  if (!row) throw new Error('The course paths query returned no row');
  return row;
}
