import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

import { isApiError } from './api-client';

const MAX_RETRIES = 2;
/** How long an answer counts as current: a page that mounts within it reads it without asking again. */
const FRESH_FOR_MS = 30_000;

/**
 * Retries what can get better by waiting (network errors, 5xx, 429) and never
 * what cannot (other 4xx: the request itself is wrong or not allowed).
 */
export function shouldRetryRequest(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!isApiError(error)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/**
 * Whether a page that mounts over a failed query asks again. A refusal (a
 * 4xx other than 429) answered within the freshness window is shown as it
 * is: typically the route loader's prefetch, answered while the page's code
 * loaded, which would otherwise go out twice. Network errors, 5xx, 429 and
 * older refusals are asked again.
 */
export function shouldRetryOnMount(
  query: { state: { error: unknown; errorUpdatedAt: number } },
  now = Date.now(),
): boolean {
  const { error, errorUpdatedAt } = query.state;
  const isRefusal = isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429;
  return !(isRefusal && now - errorUpdatedAt < FRESH_FOR_MS);
}

export const queryConfig = {
  queries: {
    staleTime: FRESH_FOR_MS,
    refetchOnWindowFocus: false,
    retry: shouldRetryRequest,
    retryOnMount: shouldRetryOnMount,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}
