import { describe, expect, it } from 'vitest';

import {
  correctRateBand,
  heatmapActivityQuery,
  heatmapLearnersQuery,
  heatmapQuestionsQuery,
} from './analytics-heatmaps';

const courseId = '11111111-1111-4111-8111-111111111111';

describe('heatmap queries', () => {
  it('needs a course for the questions and learners grids, not for activity', () => {
    expect(heatmapQuestionsQuery.safeParse({}).success).toBe(false);
    expect(heatmapQuestionsQuery.safeParse({ courseId: 'nope' }).error?.issues[0]?.message).toBe(
      'Course not found',
    );
    expect(heatmapActivityQuery.parse({})).toEqual({});
  });

  it('sorts learners by wrong answers on page 1 unless told, and reads the page from the query string', () => {
    expect(heatmapLearnersQuery.parse({ courseId })).toEqual({ courseId, sort: 'wrong', page: 1 });
    expect(heatmapLearnersQuery.parse({ courseId, sort: 'name', order: 'desc', page: '3' })).toMatchObject({
      sort: 'name',
      order: 'desc',
      page: 3,
    });
    expect(heatmapLearnersQuery.safeParse({ courseId, sort: 'age' }).error?.issues[0]?.message).toBe(
      'Sort by one of: name, wrong, score',
    );
    expect(heatmapLearnersQuery.safeParse({ courseId, page: '0' }).success).toBe(false);
  });

  it('refuses a period that ends before it starts', () => {
    expect(heatmapQuestionsQuery.safeParse({ courseId, from: '2026-03-05', to: '2026-03-01' }).success).toBe(
      false,
    );
    expect(heatmapQuestionsQuery.safeParse({ courseId, from: '2026-03-01', to: '2026-03-01' }).success).toBe(
      true,
    );
  });
});

describe('correctRateBand', () => {
  it('puts rates in five 20-point bands with 100% in the top one', () => {
    expect([0, 0.199, 0.2, 0.5, 0.8, 1, 1.2, -1].map(correctRateBand)).toEqual([0, 0, 1, 2, 4, 4, 4, 0]);
  });
});
