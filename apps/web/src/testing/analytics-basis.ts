import type { AnalyticsBasis } from '@courselens/contracts';

/** How a screen's test figures were counted: UTC, completion as reported, nobody left out, current. */
export function testAnalyticsBasis(overrides: Partial<AnalyticsBasis> = {}): AnalyticsBasis {
  return {
    timeZone: 'UTC',
    completion: 'completed',
    excludedLearners: 0,
    computedAt: '2026-03-02T10:00:00.000Z',
    refreshing: false,
    ...overrides,
  };
}
