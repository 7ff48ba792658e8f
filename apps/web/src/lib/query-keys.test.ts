import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import {
  allOrganizationsKey,
  invalidateActivity,
  organizationDomainKey,
  organizationKey,
  queryKeyMentions,
  sharedViewKey,
} from './query-keys';

const COURSE_ID = '33333333-3333-4333-8333-333333333333';

describe('query keys', () => {
  it('roots every domain of an organization at that organization', () => {
    expect(organizationKey('o1')).toEqual(['org', 'o1']);
    expect(organizationDomainKey('o1', 'courses')).toEqual(['org', 'o1', 'courses']);
    expect(organizationDomainKey('o1', 'variables').slice(0, 2)).toEqual(organizationKey('o1'));
    expect(organizationKey('o1').slice(0, 1)).toEqual(allOrganizationsKey);
  });

  it('gives a session still loading its own root, never another organization', () => {
    expect(organizationKey(undefined)).toEqual(['org', null]);
    expect(organizationKey(null)).toEqual(['org', null]);
    expect(organizationDomainKey(undefined, 'dashboard')).toEqual(['org', null, 'dashboard']);
  });

  it('keeps views read by a share token outside every organization', () => {
    expect(sharedViewKey('report')).toEqual(['shared', 'report']);
    expect(sharedViewKey('report')[0]).not.toBe(allOrganizationsKey[0]);
  });

  it('finds the queries that name a record, in a part or inside an object part', () => {
    expect(
      queryKeyMentions([...organizationDomainKey('o1', 'courses'), 'detail', COURSE_ID], COURSE_ID),
    ).toBe(true);
    expect(
      queryKeyMentions(
        [
          ...organizationDomainKey('o1', 'variable-reports'),
          { kind: 'course_variable', courseId: COURSE_ID },
        ],
        COURSE_ID,
      ),
    ).toBe(true);
    expect(
      queryKeyMentions(
        [...organizationDomainKey('o1', 'variables'), 'list', { courses: [COURSE_ID] }],
        COURSE_ID,
      ),
    ).toBe(true);
    // Another record, or the id only as part of a longer text, is not that record.
    expect(queryKeyMentions([...organizationDomainKey('o1', 'courses'), 'list', { q: 'x' }], COURSE_ID)).toBe(
      false,
    );
    expect(queryKeyMentions(['org', 'o1', 'learners', 'list', { q: `${COURSE_ID}-copy` }], COURSE_ID)).toBe(
      false,
    );
  });

  it('a change logged in the activity feed makes the feed and the dashboard stale, nothing else', async () => {
    const queryClient = new QueryClient();
    const keys = {
      feed: [...organizationDomainKey('o1', 'activity'), 'feed', { page: 1 }],
      actors: [...organizationDomainKey('o1', 'activity'), 'actors'],
      dashboard: [...organizationDomainKey('o1', 'dashboard'), { days: 30 }],
      courses: [...organizationDomainKey('o1', 'courses'), 'list'],
      otherFeed: [...organizationDomainKey('o2', 'activity'), 'feed', { page: 1 }],
    };
    for (const key of Object.values(keys)) queryClient.setQueryData(key, { cached: true });

    await invalidateActivity(queryClient, 'o1');

    const isStale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(isStale(keys.feed)).toBe(true);
    expect(isStale(keys.actors)).toBe(true);
    expect(isStale(keys.dashboard)).toBe(true);
    expect(isStale(keys.courses)).toBe(false);
    expect(isStale(keys.otherFeed)).toBe(false);
  });
});
