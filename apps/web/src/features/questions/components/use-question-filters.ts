import type { QuestionSortKey } from '@courselens/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { readListParams, useListParams, type ListDefaults } from '@/lib/use-list-params';

import type { QuestionListParams } from '../api/get-questions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A questions screen's list as its URL says it (the hook and the route loader read it alike). */
export function readQuestionFilters(
  searchParams: URLSearchParams,
  sortKeys: readonly QuestionSortKey[],
  defaults: ListDefaults<QuestionSortKey>,
): QuestionListParams {
  const rawCourse = searchParams.get('course');
  const courseId = rawCourse && UUID.test(rawCourse) ? rawCourse : undefined;
  const isShowingHidden = searchParams.get('show') === 'hidden';
  return { ...readListParams(searchParams, sortKeys, defaults), courseId, active: !isShowingHidden };
}

/**
 * The list state of a questions screen in the URL: search, page and sort plus
 * `?course=` and `?show=hidden`. Changing a filter starts from the first page.
 */
export function useQuestionFilters(
  sortKeys: readonly QuestionSortKey[],
  defaults: ListDefaults<QuestionSortKey>,
) {
  const [, updateList] = useListParams(sortKeys, defaults);
  const [searchParams, setSearchParams] = useSearchParams();
  const { sort, order } = defaults;
  const params = useMemo(
    () => readQuestionFilters(searchParams, sortKeys, { sort, order }),
    [searchParams, sortKeys, sort, order],
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
