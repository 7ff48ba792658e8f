import { describe, expect, it } from 'vitest';

import { coursePathsQuery, learningPathsQuery, sankeyNodeId } from './analytics-paths';

const courseId = '11111111-1111-4111-8111-111111111111';

describe('learning path queries', () => {
  it('cuts paths at 8 steps unless told, within 2 to 15', () => {
    expect(learningPathsQuery.parse({ courseId })).toEqual({ courseId, depth: 8 });
    expect(learningPathsQuery.parse({ courseId, depth: '4', afterSlide: '0' })).toMatchObject({
      depth: 4,
      afterSlide: 0,
    });
    expect(learningPathsQuery.safeParse({ courseId, depth: '16' }).error?.issues[0]?.message).toBe(
      'Depth is a whole number of steps from 2 to 15',
    );
    expect(learningPathsQuery.safeParse({ courseId, afterSlide: '-1' }).success).toBe(false);
    expect(coursePathsQuery.parse({})).toEqual({ depth: 8 });
  });
});

describe('sankeyNodeId', () => {
  it('holds the step, so the same slide at two steps is two nodes', () => {
    expect(sankeyNodeId(1, '3')).not.toBe(sankeyNodeId(4, '3'));
    expect(sankeyNodeId(9, '…')).toBe('9:…');
  });
});
