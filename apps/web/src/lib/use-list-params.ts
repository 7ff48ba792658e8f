import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type ListParams<Key extends string> = {
  q: string;
  page: number;
  sort: Key;
  order: 'asc' | 'desc';
};

export type ListDefaults<Key extends string> = { sort: Key; order: 'asc' | 'desc' };

/**
 * A list screen's search, page and sort as its URL says them; unknown or
 * malformed values fall back to the defaults. The screen's hook and its
 * route loader both read the URL through this, so they ask for the same list.
 */
export function readListParams<const Key extends string>(
  searchParams: URLSearchParams,
  sortKeys: readonly Key[],
  defaults: ListDefaults<NoInfer<Key>>,
): ListParams<Key> {
  const page = Number(searchParams.get('page'));
  const sort = searchParams.get('sort');
  const order = searchParams.get('order');
  return {
    q: searchParams.get('q') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sort: sort !== null && (sortKeys as readonly string[]).includes(sort) ? (sort as Key) : defaults.sort,
    order: order === 'asc' || order === 'desc' ? order : defaults.order,
  };
}

/**
 * The search, page and sort of a list screen, kept in the URL (`?q=&page=&sort=&order=`)
 * so a list can be bookmarked, shared and restored by the back button.
 */
export function useListParams<const Key extends string>(
  sortKeys: readonly Key[],
  defaults: ListDefaults<NoInfer<Key>>,
) {
  const [searchParams, setSearchParams] = useSearchParams();

  const params = useMemo<ListParams<Key>>(
    () => readListParams(searchParams, sortKeys, { sort: defaults.sort, order: defaults.order }),
    [searchParams, sortKeys, defaults.sort, defaults.order],
  );

  const update = useCallback(
    (changes: Partial<ListParams<Key>>) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          // A new search or sort starts again from the first page.
          if (('q' in changes || 'sort' in changes || 'order' in changes) && !('page' in changes)) {
            next.delete('page');
          }
          if (next.get('page') === '1') next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  return [params, update] as const;
}
