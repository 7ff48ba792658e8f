import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import type { VariableChartParams } from '../api/get-variable-chart';
import type { VariableLeadersParams } from '../api/get-variable-leaders';
import type { VariableFilterParams, VariableReportParams } from '../api/get-variable-report';

const SORTS = ['learner', 'value', 'recordedAt', 'course'] as const;
const LIMITS = [5, 10, 25, 50, 100] as const;
export const FILTER_KEYS = ['courseId', 'from', 'to', 'min', 'max', 'contains', 'value'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A variable report's state as its URL says it: filters shared by the three
 * views (`courseId`, `from`, `to`, `min`, `max`, `contains`, `value`), the
 * report's search, sort and page, and the leaders' order and `top`. The
 * screen and its route loader read the URL alike.
 */
export function readVariableReportState(searchParams: URLSearchParams) {
  const text = (key: string) => searchParams.get(key)?.trim() || undefined;
  const day = (key: string) => {
    const value = text(key);
    return value && DAY.test(value) ? value : undefined;
  };
  const value = searchParams.get('value');
  const filters: VariableFilterParams = {
    courseId: text('courseId'),
    from: day('from'),
    to: day('to'),
    min: text('min'),
    max: text('max'),
    contains: text('contains'),
    value: value === 'true' || value === 'false' ? value : undefined,
  };
  const page = Number(searchParams.get('page'));
  const sort = searchParams.get('sort');
  const order = searchParams.get('order');
  const report: VariableReportParams = {
    ...filters,
    q: searchParams.get('q') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sort: (SORTS as readonly string[]).includes(sort ?? '')
      ? (sort as VariableReportParams['sort'])
      : 'recordedAt',
    order: order === 'asc' ? 'asc' : 'desc',
  };
  const top = Number(searchParams.get('top'));
  const leaders: VariableLeadersParams = {
    ...filters,
    order: searchParams.get('rank') === 'asc' ? 'asc' : 'desc',
    limit: (LIMITS as readonly number[]).includes(top) ? top : 10,
  };
  const interval = searchParams.get('interval');
  const chart: VariableChartParams = {
    ...filters,
    interval: interval === 'day' || interval === 'week' ? interval : undefined,
  };
  const token = searchParams.get('token') ?? '';
  return { filters, report, leaders, chart, token };
}

/** The state of a variable report in its URL (see {@link readVariableReportState}), and how to change it. */
export function useVariableReportParams() {
  const [searchParams, setSearchParams] = useSearchParams();

  const state = useMemo(() => readVariableReportState(searchParams), [searchParams]);

  const update = useCallback(
    (changes: Record<string, string | number | undefined>) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  /** The query string a tab link keeps: the filters (and the token of a shared view), not the sort or page. */
  const tabSearch = useMemo(() => {
    const kept = new URLSearchParams();
    for (const key of [...FILTER_KEYS, 'token']) {
      const value = searchParams.get(key);
      if (value) kept.set(key, value);
    }
    const text = kept.toString();
    return text ? `?${text}` : '';
  }, [searchParams]);

  return { ...state, update, tabSearch, limits: LIMITS };
}
