import type { VariableListItem } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import { fetchedRequests, jsonResponse, stubFetch } from '@/testing/test-utils';

import { courseVariableLabel, getCourseVariableOptions } from './get-course-variable-options';

function item(index: number, courseTitle: string, title: string | null = null): VariableListItem {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `v${index}`,
    title,
    description: null,
    dataType: 'text',
    active: true,
    courseId: courseTitle,
    courseTitle,
    usageCount: 0,
    learnerCount: 0,
    lastRecordedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('getCourseVariableOptions', () => {
  it('reads every page of a long list, keeps each variable once and orders them by course', async () => {
    // 230 variables: pages of 100, 100 and 30; the third repeats one of the second.
    const all = Array.from({ length: 230 }, (_, index) => item(index, index % 2 ? 'Safety' : 'Onboarding'));
    const fetchMock = stubFetch((url) => {
      const page = Number(new URL(url, 'http://x').searchParams.get('page'));
      const items = all.slice((page - 1) * 100, page * 100);
      if (page === 3) items.push(all[150]!);
      return jsonResponse(200, { items, total: all.length, page, pageSize: 100 });
    });

    const options = await getCourseVariableOptions();

    expect(
      fetchedRequests(fetchMock)
        .map(({ url }) => new URL(url, 'http://x').searchParams)
        .map((query) => [query.get('page'), query.get('pageSize')]),
    ).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
    expect(options).toHaveLength(230);
    expect(options[0]?.courseTitle).toBe('Onboarding');
    expect(options.at(-1)?.courseTitle).toBe('Safety');
  });

  it('stops after one request when the first page holds everything', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, { items: [item(1, 'Safety', 'Final score')], total: 1, page: 1, pageSize: 100 }),
    );
    const options = await getCourseVariableOptions();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(options.map(courseVariableLabel)).toEqual(['Safety · Final score']);
  });
});
