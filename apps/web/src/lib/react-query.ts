import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

import { isApiError } from './api-client';

const MAX_RETRIES = 2;

/**
 * Retries what can get better by waiting (network errors, 5xx, 429) and never
 * what cannot (other 4xx: the request itself is wrong or not allowed).
 */
export function shouldRetryRequest(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!isApiError(error)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

export const queryConfig = {
  queries: {
    staleTime: 30_000,
    refetchOnWindowFocus: false,
    retry: shouldRetryRequest,
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}
