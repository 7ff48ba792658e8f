import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export type DatabaseEngine = 'pglite' | 'postgres';

/** `GET /api/health` when the database answered (a 503 `{status:'error'}` throws an ApiError). */
export type Health = {
  status: 'ok';
  database: DatabaseEngine;
  version: string;
};

export const HEALTH_REFETCH_INTERVAL_MS = 30_000;

/** Checks the answer's shape: the status panel must not claim "ok" on a body it does not understand. */
export function parseHealth(body: unknown): Health {
  if (typeof body === 'object' && body !== null) {
    const { status, database, version } = body as Record<string, unknown>;
    if (
      status === 'ok' &&
      (database === 'pglite' || database === 'postgres') &&
      typeof version === 'string'
    ) {
      return { status, database, version };
    }
  }
  throw new Error('The health check answered in an unexpected format.');
}

export async function getHealth({ signal }: { signal?: AbortSignal } = {}): Promise<Health> {
  const body = await api.get<unknown>('/health', { signal });
  return parseHealth(body);
}

export function healthQueryOptions() {
  return queryOptions({
    queryKey: ['system', 'health'],
    queryFn: ({ signal }) => getHealth({ signal }),
    staleTime: 10_000,
    refetchInterval: HEALTH_REFETCH_INTERVAL_MS,
  });
}

export function useHealth() {
  return useQuery(healthQueryOptions());
}
