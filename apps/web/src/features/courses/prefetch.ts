import {
  COURSE_LEARNER_LIST_DEFAULTS,
  COURSE_LEARNER_SORT_KEYS,
  COURSE_LIST_DEFAULTS,
  COURSE_SORT_KEYS,
} from '@courselens/contracts';

import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';
import { readListParams } from '@/lib/use-list-params';

import { broadcastsPageOf, broadcastsQueryOptions } from './api/get-broadcasts';
import { courseQueryOptions } from './api/get-course';
import { courseLearnersQueryOptions } from './api/get-course-learners';
import { coursesQueryOptions } from './api/get-courses';

/*
 * What each course route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/courses`: the list its URL asks for. */
export function courseList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  const params = readListParams(searchParams, COURSE_SORT_KEYS, COURSE_LIST_DEFAULTS);
  prefetch(coursesQueryOptions(organizationId, params));
}

/** The course layout (its header): the course itself. */
export function courseLayout({ organizationId, params, prefetch }: OrganizationPrefetchRoute) {
  prefetch(courseQueryOptions(organizationId, params.courseId ?? ''));
}

/** `/course/:courseId/learners`: the learners its URL asks for. */
export function courseLearners({
  organizationId,
  params,
  searchParams,
  prefetch,
}: OrganizationPrefetchRoute) {
  const list = readListParams(searchParams, COURSE_LEARNER_SORT_KEYS, COURSE_LEARNER_LIST_DEFAULTS);
  prefetch(courseLearnersQueryOptions(organizationId, params.courseId ?? '', list));
}

/** `/course/:courseId/broadcasts`: the page of broadcasts its URL asks for. */
export function courseBroadcasts({
  organizationId,
  params,
  searchParams,
  prefetch,
}: OrganizationPrefetchRoute) {
  prefetch(broadcastsQueryOptions(organizationId, params.courseId ?? '', broadcastsPageOf(searchParams)));
}
