import type { AnalyticsBasis } from '@courselens/contracts';
import type { Database } from '../../db/client';
import { cachedRecentResult } from '../metrics/result-cache';
import { countExcludedLearners } from './analytics-learners.queries';
import { loadAnalyticsScope, type AnalyticsScope } from './analytics-settings.service';

/**
 * An analytics answer as a whole, kept (decision 022, after 021): once the
 * organization's data changed, an answer that was slow to compute over many
 * learners is served as computed a moment ago, dated in its basis with
 * `refreshing`, while its new figures are computed for the next reader.
 * Everything else (a quick answer, a small organization, an older one) is
 * computed now, as before.
 *
 * The key is what the answer is made of besides the organization's data,
 * which the data version follows: the screen, its request and the
 * analytics settings (a changed setting is a new key, so never answered
 * with figures counted the old way). `compute` must read only tables whose
 * writes move the version, as every kept result must.
 */
export async function recentAnalytics<T extends { basis: AnalyticsBasis }>(
  db: Database,
  organizationId: string,
  screen: string,
  request: unknown,
  compute: (scope: AnalyticsScope) => Promise<T>,
): Promise<T> {
  const scope = await loadAnalyticsScope(db, organizationId);
  const kept = await cachedRecentResult(
    db,
    organizationId,
    `analytics:${screen}:${JSON.stringify([scope.settings, request])}`,
    async () => {
      const [value, counts] = await Promise.all([
        compute(scope),
        countExcludedLearners(db, organizationId, scope.settings),
      ]);
      return { value, learners: counts.total - counts.excluded };
    },
    { learnersOf: (result) => result.learners },
  );
  const { value } = kept.value;
  return {
    ...value,
    basis: { ...value.basis, computedAt: kept.computedAt.toISOString(), refreshing: kept.refreshing },
  };
}
