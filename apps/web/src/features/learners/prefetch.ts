import {
  LEARNER_COURSE_DEFAULT_SORT,
  LEARNER_COURSE_SORT_KEYS,
  LEARNER_DEFAULT_SORT,
  LEARNER_RESPONSE_DEFAULT_SORT,
  LEARNER_RESPONSE_SORT_KEYS,
  LEARNER_SORT_KEYS,
  LEARNER_VARIABLE_DEFAULT_SORT,
  LEARNER_VARIABLE_SORT_KEYS,
} from '@courselens/contracts';

import type { OrganizationPrefetchRoute, PagePrefetch } from '@/lib/route-loaders';
import { readListParams } from '@/lib/use-list-params';

import { learnerQueryOptions } from './api/get-learner';
import { learnerChatbotVariablesQueryOptions } from './api/get-learner-chatbot-variables';
import { learnerCoursesQueryOptions } from './api/get-learner-courses';
import { learnerResponsesQueryOptions } from './api/get-learner-responses';
import {
  learnerCourseVariablesQueryOptions,
  learnerVariablesQueryOptions,
} from './api/get-learner-variables';
import { learnersQueryOptions } from './api/get-learners';

/*
 * What each learner route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

type LearnerTabRoute = OrganizationPrefetchRoute & { learnerId: string };

/**
 * A learner tab's prefetch: the learner (the header every tab shares) and
 * the tab's own list, started together.
 */
function learnerTab(prefetchTab: (route: LearnerTabRoute) => void): PagePrefetch<OrganizationPrefetchRoute> {
  return (route) => {
    const learnerId = route.params.learnerId ?? '';
    route.prefetch(learnerQueryOptions(route.organizationId, learnerId));
    prefetchTab({ ...route, learnerId });
  };
}

/** `/learners`: the list its URL asks for. */
export function learnerList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  const params = readListParams(searchParams, LEARNER_SORT_KEYS, LEARNER_DEFAULT_SORT);
  prefetch(learnersQueryOptions(organizationId, params));
}

/** A learner's courses. */
export const learnerCourses = learnerTab(({ organizationId, learnerId, searchParams, prefetch }) => {
  const params = readListParams(searchParams, LEARNER_COURSE_SORT_KEYS, LEARNER_COURSE_DEFAULT_SORT);
  prefetch(learnerCoursesQueryOptions(organizationId, learnerId, params));
});

/** A learner's variables, and the values agents captured from them. */
export const learnerVariables = learnerTab(({ organizationId, learnerId, searchParams, prefetch }) => {
  const params = readListParams(searchParams, LEARNER_VARIABLE_SORT_KEYS, LEARNER_VARIABLE_DEFAULT_SORT);
  prefetch(learnerVariablesQueryOptions(organizationId, learnerId, params));
  prefetch(learnerChatbotVariablesQueryOptions(organizationId, learnerId));
});

/** A learner's responses. */
export const learnerResponses = learnerTab(({ organizationId, learnerId, searchParams, prefetch }) => {
  const params = readListParams(searchParams, LEARNER_RESPONSE_SORT_KEYS, LEARNER_RESPONSE_DEFAULT_SORT);
  prefetch(learnerResponsesQueryOptions(organizationId, learnerId, params));
});

/** A learner's variables in one course. */
export const learnerCourseVariables = learnerTab(
  ({ organizationId, learnerId, params, searchParams, prefetch }) => {
    const list = readListParams(searchParams, LEARNER_VARIABLE_SORT_KEYS, LEARNER_VARIABLE_DEFAULT_SORT);
    prefetch(learnerCourseVariablesQueryOptions(organizationId, learnerId, params.courseId ?? '', list));
  },
);
