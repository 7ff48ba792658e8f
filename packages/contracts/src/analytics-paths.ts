import { z } from 'zod';
import { analyticsBasisSchema, analyticsPeriodQuery } from './analytics';
import { LEARNING_MESSAGES } from './courses';
import { uuidSchema } from './ids';

/**
 * Learning paths: the slide sequences learners take within a course (from
 * its `slide.viewed` events, in run order), and the order learners start the
 * organization's courses in. Drawn as a Sankey whose nodes are "step k:
 * slide s", so the graph has no cycles even when learners go back.
 */

export const DEFAULT_PATH_DEPTH = 8;
export const MIN_PATH_DEPTH = 2;
export const MAX_PATH_DEPTH = 15;
/** Most frequent paths listed. */
export const TOP_PATHS_LIMIT = 20;
/** Links drawn in a Sankey at most; the smaller flows are counted, not drawn. */
export const MAX_SANKEY_LINKS = 60;
/** The slide (or course) standing for every step past the depth. */
export const PATH_REST = '…';

export const PATH_MESSAGES = {
  invalidDepth: `Depth is a whole number of steps from ${MIN_PATH_DEPTH} to ${MAX_PATH_DEPTH}`,
  invalidSlide: 'Choose a slide number (a whole number from 0)',
} as const;

const depth = z.coerce
  .number({ error: PATH_MESSAGES.invalidDepth })
  .int({ error: PATH_MESSAGES.invalidDepth })
  .min(MIN_PATH_DEPTH, { error: PATH_MESSAGES.invalidDepth })
  .max(MAX_PATH_DEPTH, { error: PATH_MESSAGES.invalidDepth })
  .default(DEFAULT_PATH_DEPTH);

export const learningPathsQuery = analyticsPeriodQuery.safeExtend({
  courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound),
  depth,
  /** Show the runs that viewed this slide and did not complete. */
  afterSlide: z.coerce
    .number({ error: PATH_MESSAGES.invalidSlide })
    .int({ error: PATH_MESSAGES.invalidSlide })
    .min(0, { error: PATH_MESSAGES.invalidSlide })
    .max(1_000_000, { error: PATH_MESSAGES.invalidSlide })
    .optional(),
});
export type LearningPathsQuery = z.infer<typeof learningPathsQuery>;

export const coursePathsQuery = analyticsPeriodQuery.safeExtend({ depth });
export type CoursePathsQuery = z.infer<typeof coursePathsQuery>;

/** A Sankey node: step `step` (1-based) at `key` (a slide number or course id, or PATH_REST). */
export const sankeyNodeSchema = z.object({
  id: z.string(),
  step: z.number().int().positive(),
  key: z.string(),
  label: z.string(),
});
export type SankeyNode = z.infer<typeof sankeyNodeSchema>;

export const sankeyLinkSchema = z.object({
  source: z.string(),
  target: z.string(),
  value: z.number().int(),
});
export type SankeyLink = z.infer<typeof sankeyLinkSchema>;

export const sankeySchema = z.object({
  nodes: z.array(sankeyNodeSchema),
  links: z.array(sankeyLinkSchema),
  /** Flows left out of the drawing (too small, or cut off from step 1 by one), and what they carried. */
  hiddenLinks: z.number().int(),
  hiddenValue: z.number().int(),
});
export type SankeyGraph = z.infer<typeof sankeySchema>;

/** The id of a Sankey node: steps are part of it, so a slide seen twice is two nodes and the graph stays acyclic. */
export function sankeyNodeId(step: number, key: string): string {
  return `${step}:${key}`;
}

export const slidePathSchema = z.object({
  /** Slide numbers in order, consecutive repeats collapsed, at most `depth`. */
  slides: z.array(z.number().int()),
  /** The path went on past the depth (drawn as "…"). */
  isTruncated: z.boolean(),
  runs: z.number().int(),
  /** Of the runs counted (0..1). */
  share: z.number(),
});
export type SlidePath = z.infer<typeof slidePathSchema>;

export const slideCountSchema = z.object({
  slideNumber: z.number().int(),
  runs: z.number().int(),
  share: z.number(),
});
export type SlideCount = z.infer<typeof slideCountSchema>;

export const pathSlideSchema = z.object({ slideNumber: z.number().int(), title: z.string().nullable() });
export type PathSlide = z.infer<typeof pathSlideSchema>;

export const learningPathsResponse = z.object({
  basis: analyticsBasisSchema,
  course: z.object({ id: z.string(), title: z.string() }),
  depth: z.number().int(),
  /** Whether the course has ever sent a slide view; false: it sends none, so no slide paths at all. */
  hasSlideViews: z.boolean(),
  /** Runs with a slide view in the period. */
  runs: z.number().int(),
  /** Of them, those that did not complete under the settings' completion rule. */
  incompleteRuns: z.number().int(),
  /** The slides seen in the period, with their latest title. */
  slides: z.array(pathSlideSchema),
  sankey: sankeySchema,
  topPaths: z.array(slidePathSchema),
  /** Last slide viewed by the incomplete runs, most first (share of incomplete runs). */
  exits: z.array(slideCountSchema),
  /** With `afterSlide`: the incomplete runs that viewed that slide. */
  dropOff: z
    .object({
      slideNumber: z.number().int(),
      runs: z.number().int(),
      /** Where they left (share of these runs). */
      exits: z.array(slideCountSchema),
      /** Their paths (share of these runs). */
      paths: z.array(slidePathSchema),
    })
    .nullable(),
});
export type LearningPathsResponse = z.infer<typeof learningPathsResponse>;

export const coursePathSchema = z.object({
  /** Course ids in the order the learner first started them, at most `depth`. */
  courses: z.array(z.string()),
  isTruncated: z.boolean(),
  learners: z.number().int(),
  share: z.number(),
});
export type CoursePath = z.infer<typeof coursePathSchema>;

export const coursePathsResponse = z.object({
  basis: analyticsBasisSchema,
  depth: z.number().int(),
  /** Learners who started a course in the period. */
  learners: z.number().int(),
  /** Titles of the courses named in the paths and the Sankey. */
  courses: z.array(z.object({ id: z.string(), title: z.string() })),
  sankey: sankeySchema,
  topPaths: z.array(coursePathSchema),
});
export type CoursePathsResponse = z.infer<typeof coursePathsResponse>;
