import type { DefaultError, FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import type { LoaderFunction, Params } from 'react-router';

import { loadCurrentOrganization, type OrganizationMembership } from './auth';

/**
 * Starts one query a page reads, built by the page's own `...QueryOptions()`
 * function, so the page's hook finds it in the cache (or in flight) under
 * the same key. A query the hook would not run (`enabled: false`) is not
 * started either: `prefetchQuery` alone would ignore `enabled`.
 */
export type PrefetchQuery = <
  TQueryFnData,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
>(
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey> & { enabled?: unknown },
) => void;

/** What a page's prefetch knows at navigation time: the URL, and the way to start a query. */
export type PrefetchRoute = {
  params: Params;
  searchParams: URLSearchParams;
  prefetch: PrefetchQuery;
};

/** The same, for a page of the current organization (its id, and the user's role in it). */
export type OrganizationPrefetchRoute = PrefetchRoute & {
  organizationId: string;
  organization: OrganizationMembership;
};

function prefetcher(queryClient: QueryClient): PrefetchQuery {
  return (options) => {
    if (options.enabled === false) return;
    // prefetchQuery never throws: a failure lands in the cache, where the page shows it.
    void queryClient.prefetchQuery(options);
  };
}

/**
 * A route loader that starts the queries of its page's first screen and
 * returns at once. React Router runs the loaders of every matched route
 * together, while it downloads the page's code, so a layout and its tab
 * fetch in parallel and no request waits for a chunk. Navigation does not
 * wait for the data: the page shows its own loading and error states, as
 * when it fetches by itself, and its hooks join the requests in flight.
 */
export function prefetchLoader(
  queryClient: QueryClient,
  prefetchPage: (route: PrefetchRoute) => void,
): LoaderFunction {
  return ({ params, url }) => {
    prefetchPage({
      params,
      searchParams: url.searchParams,
      prefetch: prefetcher(queryClient),
    });
    return null;
  };
}

/**
 * {@link prefetchLoader} for a page of the current organization: waits for
 * the session (already loaded, or loading for the auth guard: one request)
 * to know which organization the page will read. Signed out, or without an
 * organization, nothing is started (the guard redirects, or the page says so).
 */
export function organizationLoader(
  queryClient: QueryClient,
  prefetchPage: (route: OrganizationPrefetchRoute) => void,
): LoaderFunction {
  return async ({ params, url }) => {
    const organization = await loadCurrentOrganization(queryClient);
    if (organization) {
      prefetchPage({
        organizationId: organization.id,
        organization,
        params,
        searchParams: url.searchParams,
        prefetch: prefetcher(queryClient),
      });
    }
    return null;
  };
}
