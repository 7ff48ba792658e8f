import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import { actionQueryOptions } from './api/get-action';
import { actionsQueryOptions } from './api/get-actions';
import { courseOptionsQueryOptions } from '@/lib/course-options';
import { readActionListParams } from './components/action-list-params';

/*
 * What each action route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/actions`: the list its URL asks for. */
export function actionList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(actionsQueryOptions(organizationId, readActionListParams(searchParams)));
}

/** A new action: the course options of its form. */
export function actionCreate({ organizationId, prefetch }: OrganizationPrefetchRoute) {
  prefetch(courseOptionsQueryOptions(organizationId));
}

/** A saved action: the action and its form's course options together. */
export function actionEdit({ organizationId, params, prefetch }: OrganizationPrefetchRoute) {
  prefetch(actionQueryOptions(organizationId, params.id ?? ''));
  prefetch(courseOptionsQueryOptions(organizationId));
}
