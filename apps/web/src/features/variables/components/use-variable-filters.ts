import { VARIABLE_DEFAULT_SORT, VARIABLE_SORT_KEYS } from '@courselens/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { readListParams, useListParams } from '@/lib/use-list-params';

import type { VariableListParams } from '../api/get-variables';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type VariableStatusFilter = 'all' | 'active' | 'inactive';

/** `?status=` as the server's `active` filter. */
export function statusToActive(status: VariableStatusFilter): boolean | undefined {
  return status === 'all' ? undefined : status === 'active';
}

/** A variables screen's list as its URL says it (the hook and the route loader read it alike). */
export function readVariableFilters(searchParams: URLSearchParams): {
  params: VariableListParams;
  status: VariableStatusFilter;
} {
  const rawCourse = searchParams.get('course');
  const courseId = rawCourse && UUID.test(rawCourse) ? rawCourse : undefined;
  const rawStatus = searchParams.get('status');
  const status: VariableStatusFilter = rawStatus === 'active' || rawStatus === 'inactive' ? rawStatus : 'all';
  const listParams = readListParams(searchParams, VARIABLE_SORT_KEYS, VARIABLE_DEFAULT_SORT);
  return { params: { ...listParams, courseId, active: statusToActive(status) }, status };
}

/**
 * The whole list state of a variables screen in the URL: search, page and
 * sort (shared list params) plus `?course=` and `?status=`. Changing a filter
 * starts again from the first page.
 */
export function useVariableFilters() {
  const [, updateList] = useListParams(VARIABLE_SORT_KEYS, VARIABLE_DEFAULT_SORT);
  const [searchParams, setSearchParams] = useSearchParams();
  const { params, status } = useMemo(() => readVariableFilters(searchParams), [searchParams]);

  const setFilter = useCallback(
    (name: 'course' | 'status', value: string | undefined) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (value === undefined || value === '' || value === 'all') next.delete(name);
          else next.set(name, value);
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  return { params, status, updateList, setFilter };
}
