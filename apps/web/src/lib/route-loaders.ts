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

/** A page's prefetch: what it starts, given the URL (and, for an organization's page, the organization). */
export type PagePrefetch<TRoute extends PrefetchRoute> = (route: TRoute) => void;

/**
 * Loads a page's prefetch from its feature's `prefetch.ts`, e.g.
 * `() => import('./prefetch').then((m) => m.courseList)`. The prefetch sits in
 * its own chunk with the query options and the contracts (zod and its
 * schemas) it needs, so the main chunk, which every first visit downloads
 * (the public pages too), carries none of them.
 */
export type LoadPrefetch<TRoute extends PrefetchRoute> = () => Promise<PagePrefetch<TRoute>>;

function prefetcher(queryClient: QueryClient): PrefetchQuery {
  return (options) => {
    if (options.enabled === false) return;
    // prefetchQuery never throws: a failure lands in the cache, where the page shows it.
    void queryClient.prefetchQuery(options);
  };
}

/**
 * A prefetch is a head start, never a condition: when its chunk does not
 * load (a network blip), the page still opens and fetches by itself, and
 * the page's own chunk says so if the network is really gone.
 */
function loadOrSkip<TRoute extends PrefetchRoute>(
  loadPrefetch: LoadPrefetch<TRoute>,
): Promise<PagePrefetch<TRoute> | null> {
  return loadPrefetch().catch(() => null);
}

/**
 * A route loader that starts the queries of its page's first screen and
 * returns at once. React Router runs the loaders of every matched route
 * together, while it downloads the page's code, so a layout and its tab
 * fetch in parallel and no request waits for the page's chunk (only for
 * the prefetch's own, small one, which downloads beside it). Navigation
 * does not wait for the data: the page shows its own loading and error
 * states, as when it fetches by itself, and its hooks join the requests in
 * flight.
 */
export function prefetchLoader(
  queryClient: QueryClient,
  loadPrefetch: LoadPrefetch<PrefetchRoute>,
): LoaderFunction {
  return async ({ params, url }) => {
    const prefetchPage = await loadOrSkip(loadPrefetch);
    prefetchPage?.({
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
 * to know which organization the page will read, and loads the prefetch's
 * code meanwhile, so neither waits for the other. Signed out, or without an
 * organization, nothing is started (the guard redirects, or the page says so).
 */
export function organizationLoader(
  queryClient: QueryClient,
  loadPrefetch: LoadPrefetch<OrganizationPrefetchRoute>,
): LoaderFunction {
  return async ({ params, url }) => {
    const [organization, prefetchPage] = await Promise.all([
      loadCurrentOrganization(queryClient),
      loadOrSkip(loadPrefetch),
    ]);
    if (organization && prefetchPage) {
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
