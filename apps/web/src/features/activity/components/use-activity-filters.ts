import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

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

/** The feed's filters, kept in the URL (`?q=&page=&kind=a,b&actor=&from=&to=`) so a view can be shared. */
export function useActivityFilters() {
  const [searchParams, setSearchParams] = useSearchParams();

  const filters = useMemo<ActivityFilters>(() => {
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
  }, [searchParams]);

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
