import {
  MAX_SANKEY_LINKS,
  PATH_REST,
  TOP_PATHS_LIMIT,
  sankeyNodeId,
  type CoursePathsQuery,
  type CoursePathsResponse,
  type LearningPathsQuery,
  type LearningPathsResponse,
  type SankeyGraph,
  type SankeyNode,
  type SlideCount,
  type SlidePath,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { analyticsBasis, loadAnalyticsScope } from './analytics-settings.service';
import { getAnalyticsCourse } from './heatmaps.service';
import {
  selectCoursePaths,
  selectSlidePaths,
  type CountRow,
  type LinkRow,
  type PathRow,
} from './learning-paths.queries';

/** A json column: parsed by PGlite, text on node-postgres for `json` built in a subquery. */
function jsonRows<T>(value: T[] | string | null): T[] {
  if (value === null) return [];
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

export type SankeyLinkInput = { step: number; from: string; to: string | null; value: number };

/**
 * Turns counted transitions (step k from one key to the next; `to` null is
 * the rest beyond the depth) into the drawn graph. Node ids hold the step,
 * so the graph is acyclic. At most `maxLinks` links are drawn, the largest
 * first; a link is kept only when its source is at step 1 or is reached by
 * a kept link, so no node floats loose at the wrong depth. What is left out
 * is counted.
 */
export function buildSankey(
  input: readonly SankeyLinkInput[],
  label: (key: string) => string,
  maxLinks: number = MAX_SANKEY_LINKS,
): SankeyGraph {
  // A total order: links come from the statement in whatever order it grouped them, and the graph (which
  // links are kept, and the order drawn) must not depend on that.
  const largest = [...input]
    .sort(
      (a, b) =>
        b.value - a.value ||
        a.step - b.step ||
        a.from.localeCompare(b.from) ||
        (a.to ?? PATH_REST).localeCompare(b.to ?? PATH_REST),
    )
    .slice(0, maxLinks);
  const byStep = [...largest].sort((a, b) => a.step - b.step || b.value - a.value);
  const reached = new Set<string>();
  const nodes = new Map<string, SankeyNode>();
  const links: SankeyGraph['links'] = [];
  const addNode = (step: number, key: string) => {
    const id = sankeyNodeId(step, key);
    if (!nodes.has(id)) nodes.set(id, { id, step, key, label: key === PATH_REST ? PATH_REST : label(key) });
    return id;
  };
  for (const link of byStep) {
    const sourceId = sankeyNodeId(link.step, link.from);
    if (link.step > 1 && !reached.has(sourceId)) continue;
    const targetKey = link.to ?? PATH_REST;
    const source = addNode(link.step, link.from);
    const target = addNode(link.step + 1, targetKey);
    reached.add(source);
    reached.add(target);
    links.push({ source, target, value: link.value });
  }
  const totalValue = input.reduce((sum, link) => sum + link.value, 0);
  const keptValue = links.reduce((sum, link) => sum + link.value, 0);
  return {
    nodes: [...nodes.values()].sort(
      (a, b) => a.step - b.step || a.key.localeCompare(b.key, 'en', { numeric: true }),
    ),
    links,
    hiddenLinks: input.length - links.length,
    hiddenValue: totalValue - keptValue,
  };
}

function toLinks(rows: LinkRow[]): SankeyLinkInput[] {
  return rows
    .filter((row) => row.from_key !== null)
    .map((row) => ({ step: Number(row.step), from: row.from_key, to: row.to_key, value: Number(row.value) }));
}

function toSlidePaths(rows: PathRow[], whole: number): SlidePath[] {
  return rows.map((row) => ({
    slides: row.path.map(Number),
    isTruncated: row.is_truncated,
    runs: Number(row.runs),
    share: share(Number(row.runs), whole),
  }));
}

function toCounts(rows: CountRow[], whole: number): SlideCount[] {
  return rows.map((row) => ({
    slideNumber: Number(row.slide_number),
    runs: Number(row.runs),
    share: share(Number(row.runs), whole),
  }));
}

/**
 * A course's learning paths in the period: the runs' slide sequences as a
 * Sankey and as the most frequent paths, where the runs that did not
 * complete (under the settings' rule) left, and with `afterSlide` the
 * incomplete runs that viewed that slide: where they left and their paths
 * from it. Says whether the course sends slide views at all.
 */
export async function getLearningPaths(
  db: Database,
  organizationId: string,
  query: LearningPathsQuery,
): Promise<LearningPathsResponse> {
  const [course, scope] = await Promise.all([
    getAnalyticsCourse(db, organizationId, query.courseId),
    loadAnalyticsScope(db, organizationId),
  ]);
  const [row, basis] = await Promise.all([
    selectSlidePaths(db, scope, {
      courseId: query.courseId,
      period: query,
      depth: query.depth,
      limit: TOP_PATHS_LIMIT,
      afterSlide: query.afterSlide,
    }),
    analyticsBasis(db, scope),
  ]);
  const runs = Number(row.runs);
  const incompleteRuns = Number(row.incomplete);
  const slides = jsonRows(row.slides).map((slide) => ({
    slideNumber: Number(slide.slide_number),
    title: slide.title,
  }));
  const titles = new Map(slides.map((slide) => [String(slide.slideNumber), slide.title]));
  const dropRuns = row.drop_runs === null ? null : Number(row.drop_runs);
  return {
    basis,
    course,
    depth: query.depth,
    hasSlideViews: row.has_slide_views,
    runs,
    incompleteRuns,
    slides,
    sankey: buildSankey(toLinks(jsonRows(row.links)), (key) => {
      const title = titles.get(key);
      return title ? `Slide ${key}: ${title}` : `Slide ${key}`;
    }),
    topPaths: toSlidePaths(jsonRows(row.top_paths), runs),
    exits: toCounts(jsonRows(row.exits), incompleteRuns),
    dropOff:
      query.afterSlide === undefined || dropRuns === null
        ? null
        : {
            slideNumber: query.afterSlide,
            runs: dropRuns,
            exits: toCounts(jsonRows(row.drop_exits), dropRuns),
            paths: toSlidePaths(jsonRows(row.drop_paths), dropRuns),
          },
  };
}

/**
 * The order learners start the organization's courses in (first start of
 * each course in the period), as a Sankey and the most frequent sequences.
 */
export async function getCoursePaths(
  db: Database,
  organizationId: string,
  query: CoursePathsQuery,
): Promise<CoursePathsResponse> {
  const scope = await loadAnalyticsScope(db, organizationId);
  const [row, basis] = await Promise.all([
    selectCoursePaths(db, scope, { period: query, depth: query.depth, limit: TOP_PATHS_LIMIT }),
    analyticsBasis(db, scope),
  ]);
  const learners = Number(row.learners);
  const courses = jsonRows(row.courses);
  const titles = new Map(courses.map((course) => [course.id, course.title]));
  return {
    basis,
    depth: query.depth,
    learners,
    courses,
    sankey: buildSankey(toLinks(jsonRows(row.links)), (key) => titles.get(key) ?? 'Deleted course'),
    topPaths: jsonRows(row.top_paths).map((path) => ({
      courses: path.path,
      isTruncated: path.is_truncated,
      learners: Number(path.runs),
      share: share(Number(path.runs), learners),
    })),
  };
}
