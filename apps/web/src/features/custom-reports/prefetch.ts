import type { OrganizationPrefetchRoute, PrefetchRoute } from '@/lib/route-loaders';

import {
  publicReportQueryOptions,
  reportCatalogQueryOptions,
  reportDataQueryOptions,
  reportQueryOptions,
  reportsQueryOptions,
} from './api/custom-reports';
import { readReportListParams } from './components/report-list-params';

/*
 * What each custom-report route starts before its page's code arrives, with
 * the page's own query options. Loaded by `routes.tsx` on demand (its own
 * chunk), so the contracts and query options stay out of the main chunk.
 */

/** `/custom-reports`: the list its URL asks for. */
export function reportList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(reportsQueryOptions(organizationId, readReportListParams(searchParams)));
}

/** The builder of a new report, and the AI generator: what a report can be built from. */
export function reportCatalog({ organizationId, prefetch }: OrganizationPrefetchRoute) {
  prefetch(reportCatalogQueryOptions(organizationId));
}

/** The builder of a saved report: the report and its catalog together. */
export function reportEditor({ organizationId, params, prefetch }: OrganizationPrefetchRoute) {
  prefetch(reportQueryOptions(organizationId, params.id ?? ''));
  prefetch(reportCatalogQueryOptions(organizationId));
}

/** A saved report: the report and its data together. */
export function reportView({ organizationId, params, prefetch }: OrganizationPrefetchRoute) {
  prefetch(reportQueryOptions(organizationId, params.id ?? ''));
  prefetch(reportDataQueryOptions(organizationId, params.id ?? ''));
}

/** `/public-reports/:token`: the shared report, read by its token. */
export function publicReport({ params, prefetch }: PrefetchRoute) {
  prefetch(publicReportQueryOptions(params.token ?? ''));
}
