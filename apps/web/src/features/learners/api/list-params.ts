import { DEFAULT_PAGE_SIZE } from '@courselens/contracts';

import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** Every learners query of an organization starts with this key. */
export function learnersRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'learners');
}

/** What a list screen asks the server for: its URL state plus the page size. */
export type ListRequest<Key extends string> = {
  q: string;
  page: number;
  sort: Key;
  order: 'asc' | 'desc';
  pageSize?: number;
};

/** The query string of a list request (an empty search is left out). */
export function toListQuery<Key extends string>(params: ListRequest<Key>) {
  return {
    q: params.q || undefined,
    page: params.page,
    pageSize: params.pageSize ?? DEFAULT_PAGE_SIZE,
    sort: params.sort,
    order: params.order,
  };
}

/** The same filters for an `/export` (every page, so no paging). */
export function toExportQuery<Key extends string>(params: ListRequest<Key>) {
  return { q: params.q || undefined, sort: params.sort, order: params.order };
}
