import { readListParams } from '@/lib/use-list-params';

import type { ReportListParams } from '../api/custom-reports';

// The list is always newest first; the URL keeps only the search and the page.
export const REPORT_SORT_KEYS = ['createdAt'] as const;
export const REPORT_LIST_DEFAULTS = { sort: 'createdAt', order: 'desc' } as const;

/** The reports list as its URL says it (the screen and its route loader read it alike). */
export function readReportListParams(searchParams: URLSearchParams): ReportListParams {
  const { q, page } = readListParams(searchParams, REPORT_SORT_KEYS, REPORT_LIST_DEFAULTS);
  return { q, page };
}
