import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import { variableCoursesQueryOptions } from './api/get-variable-courses';
import { courseVariablesQueryOptions, variablesQueryOptions } from './api/get-variables';
import { readVariableFilters } from './components/use-variable-filters';

/*
 * What each variables route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/variables`: the list its URL asks for, and the course filter's options. */
export function variableList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(variablesQueryOptions(organizationId, readVariableFilters(searchParams).params));
  prefetch(variableCoursesQueryOptions(organizationId));
}

/** `/course/:courseId/variables`: the course's variables its URL asks for. */
export function courseVariableList({
  organizationId,
  params,
  searchParams,
  prefetch,
}: OrganizationPrefetchRoute) {
  const list = { ...readVariableFilters(searchParams).params, courseId: undefined };
  prefetch(courseVariablesQueryOptions(organizationId, params.courseId ?? '', list));
}
