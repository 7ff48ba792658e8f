import type { AnalyticsBasis } from '@courselens/contracts';

import { useFollowUpWhileRefreshing } from '@/hooks/use-follow-up-while-refreshing';

/**
 * An analytics query that reads its answer again while the server says newer
 * figures are being computed (`basis.refreshing`), until they arrive.
 */
export function useFollowedUp<
  Q extends {
    data: { basis: AnalyticsBasis } | undefined;
    dataUpdatedAt: number;
    refetch: () => Promise<unknown>;
  },
>(query: Q): Q {
  useFollowUpWhileRefreshing(query.data?.basis, query.dataUpdatedAt, query.refetch);
  return query;
}
