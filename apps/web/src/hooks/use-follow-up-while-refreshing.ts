import { useEffect, useRef } from 'react';

/** How long after figures "being refreshed" the page reads them again. */
export const FOLLOW_UP_MS = 2_000;

/**
 * An answer slow to compute may come as it was a short while ago while the
 * server computes newer figures (`refreshing`, with when they were computed).
 * The page then reads it again every few seconds until figures other than
 * those first shown arrive, and stops there even if newer ones are on their
 * way again: figures whose data changes all the time would otherwise be
 * recomputed for as long as the page stays open.
 */
export function useFollowUpWhileRefreshing(
  figures: { refreshing: boolean; computedAt: string } | undefined,
  dataUpdatedAt: number,
  refetch: () => Promise<unknown>,
) {
  const firstShown = useRef<string | null>(null);
  const refreshing = figures?.refreshing;
  const computedAt = figures?.computedAt;
  useEffect(() => {
    if (refreshing === undefined || computedAt === undefined) return;
    if (!refreshing) {
      firstShown.current = null;
      return;
    }
    firstShown.current ??= computedAt;
    if (computedAt !== firstShown.current) return;
    const timer = window.setTimeout(() => void refetch(), FOLLOW_UP_MS);
    return () => window.clearTimeout(timer);
  }, [refreshing, computedAt, dataUpdatedAt, refetch]);
}
