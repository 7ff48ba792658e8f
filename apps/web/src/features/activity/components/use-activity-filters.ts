import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import type { ActivityParams } from '../api/get-activity';

export type ActivityFilters = {
  q: string;
  page: number;
  /** Selected kinds; empty = every kind. */
  kinds: string[];
  actor: string;
  from: string;
  to: string;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const ACTIVITY_PAGE_SIZE = 25;

/** The feed's filters as its URL says them (the hook and the route loader read it alike). */
export function readActivityFilters(searchParams: URLSearchParams): ActivityFilters {
  const page = Number(searchParams.get('page'));
  const day = (key: string) => {
    const value = searchParams.get(key) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    q: searchParams.get('q') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    kinds: (searchParams.get('kind') ?? '').split(',').filter(Boolean),
    actor: searchParams.get('actor') ?? '',
    from: day('from'),
    to: day('to'),
  };
}

/** The page of the feed the filters ask the server for. */
export function toActivityParams(filters: ActivityFilters): ActivityParams {
  return {
    q: filters.q,
    kind: filters.kinds.join(','),
    actor: filters.actor,
    from: filters.from,
    to: filters.to,
    page: filters.page,
    pageSize: ACTIVITY_PAGE_SIZE,
  };
}

/** The feed's filters, kept in the URL (`?q=&page=&kind=a,b&actor=&from=&to=`) so a view can be shared. */
export function useActivityFilters() {
  const [searchParams, setSearchParams] = useSearchParams();

  const filters = useMemo(() => readActivityFilters(searchParams), [searchParams]);

  const update = useCallback(
    (changes: Partial<ActivityFilters>) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            const name = key === 'kinds' ? 'kind' : key;
            const text = Array.isArray(value) ? value.join(',') : String(value ?? '');
            if (text === '') next.delete(name);
            else next.set(name, text);
          }
          // A new filter starts again from the first page.
          if (!('page' in changes)) next.delete('page');
          if (next.get('page') === '1') next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  const clear = useCallback(
    () => setSearchParams(new URLSearchParams(), { replace: true }),
    [setSearchParams],
  );

  return [filters, update, clear] as const;
}
