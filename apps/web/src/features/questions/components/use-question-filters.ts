import type { QuestionSortKey } from '@courselens/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { useListParams } from '@/lib/use-list-params';

import type { QuestionListParams } from '../api/get-questions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The list state of a questions screen in the URL: search, page and sort plus
 * `?course=` and `?show=hidden`. Changing a filter starts from the first page.
 */
export function useQuestionFilters(
  sortKeys: readonly QuestionSortKey[],
  defaults: { sort: QuestionSortKey; order: 'asc' | 'desc' },
) {
  const [listParams, updateList] = useListParams(sortKeys, defaults);
  const [searchParams, setSearchParams] = useSearchParams();
  const rawCourse = searchParams.get('course');
  const courseId = rawCourse && UUID.test(rawCourse) ? rawCourse : undefined;
  const isShowingHidden = searchParams.get('show') === 'hidden';

  const params = useMemo<QuestionListParams>(
    () => ({ ...listParams, courseId, active: !isShowingHidden }),
    [listParams, courseId, isShowingHidden],
  );

  const setFilter = useCallback(
    (name: 'course' | 'show', value: string | undefined) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (!value) next.delete(name);
          else next.set(name, value);
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  return { params, updateList, setFilter };
}
