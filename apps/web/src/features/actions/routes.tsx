import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

import { actionQueryOptions } from './api/get-action';
import { actionsQueryOptions } from './api/get-actions';
import { courseOptionsQueryOptions } from './api/get-course-options';
import { readActionListParams } from './components/action-list-params';

/**
 * The signed-in routes of actions (lazy modules, mounted under the auth
 * guard); each loader prefetches its page's first screen with the page's
 * own query options.
 */
export function actionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.actions.list.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        prefetch(actionsQueryOptions(organizationId, readActionListParams(searchParams)));
      }),
      lazy: async () => ({ Component: (await import('./components/actions-page')).ActionsPage }),
    },
    {
      path: paths.actions.create.path,
      loader: organizationLoader(queryClient, ({ organizationId, prefetch }) => {
        prefetch(courseOptionsQueryOptions(organizationId));
      }),
      lazy: async () => ({ Component: (await import('./components/action-editor-page')).CreateActionPage }),
    },
    {
      path: paths.actions.edit.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, prefetch }) => {
        prefetch(actionQueryOptions(organizationId, params.id ?? ''));
        prefetch(courseOptionsQueryOptions(organizationId));
      }),
      lazy: async () => ({ Component: (await import('./components/action-editor-page')).EditActionPage }),
    },
  ];
}
