import type {
  CustomReport,
  CustomReportInput,
  GenerateReportResponse,
  generateReportInput,
  ListCustomReportsResponse,
  PublicReportResponse,
  ReportCatalog,
  ReportData,
  ReportSharing,
} from '@courselens/contracts';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import type { z } from 'zod';

import { useFollowUpWhileRefreshing } from '@/hooks/use-follow-up-while-refreshing';
import { api } from '@/lib/api-client';
import {
  invalidateActivity,
  organizationDomainKey,
  sharedViewKey,
  type OrganizationIdInput,
} from '@/lib/query-keys';

export const REPORTS_PAGE_SIZE = 20;

export type ReportListParams = { q: string; page: number };

/** Every custom-report query of an organization starts with this key. */
export function reportsRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'custom-reports');
}

const reportPath = (reportId: string) => `/custom-reports/${encodeURIComponent(reportId)}`;

export function reportsQueryOptions(organizationId: string | null | undefined, params: ReportListParams) {
  return queryOptions({
    queryKey: [...reportsRootKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) =>
      api.get<ListCustomReportsResponse>('/custom-reports', {
        query: { q: params.q || undefined, page: params.page, pageSize: REPORTS_PAGE_SIZE },
        signal,
      }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useReports(organizationId: string | null | undefined, params: ReportListParams) {
  return useQuery(reportsQueryOptions(organizationId, params));
}

export function reportQueryOptions(organizationId: string | null | undefined, reportId: string) {
  return queryOptions({
    queryKey: [...reportsRootKey(organizationId), 'report', reportId] as const,
    queryFn: ({ signal }) => api.get<CustomReport>(reportPath(reportId), { signal }),
    enabled: Boolean(organizationId),
  });
}

export function useReport(organizationId: string | null | undefined, reportId: string) {
  return useQuery(reportQueryOptions(organizationId, reportId));
}

/** When a report's figures were computed, and whether newer ones are on their way. */
const reportFigures = (data: ReportData | undefined) =>
  data && { refreshing: data.refreshing, computedAt: data.generatedAt };

/** A saved report's data, every item computed by the server in one answer. */
export function reportDataQueryOptions(organizationId: string | null | undefined, reportId: string) {
  return queryOptions({
    queryKey: [...reportsRootKey(organizationId), 'data', reportId] as const,
    queryFn: ({ signal }) => api.get<{ data: ReportData }>(`${reportPath(reportId)}/data`, { signal }),
    enabled: Boolean(organizationId),
  });
}

export function useReportData(organizationId: string | null | undefined, reportId: string) {
  const query = useQuery(reportDataQueryOptions(organizationId, reportId));
  useFollowUpWhileRefreshing(reportFigures(query.data?.data), query.dataUpdatedAt, query.refetch);
  return query;
}

/** Current figures of a saved report, waited for (the Refresh button), shown in place of the others. */
export function useRefreshReportData(organizationId: string | null | undefined, reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.get<{ data: ReportData }>(`${reportPath(reportId)}/data`, { query: { fresh: true } }),
    onSuccess: (fresh) => {
      queryClient.setQueryData(reportDataQueryOptions(organizationId, reportId).queryKey, fresh);
    },
  });
}

/** What a report can be built from (courses, variables, questions): the builder's and the generator's choices. */
export function reportCatalogQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: [...reportsRootKey(organizationId), 'catalog'] as const,
    queryFn: ({ signal }) => api.get<ReportCatalog>('/custom-reports/catalog', { signal }),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useReportCatalog(organizationId: string | null | undefined) {
  return useQuery(reportCatalogQueryOptions(organizationId));
}

/** The organization's reports changed; a new one is also logged in the activity feed. */
function invalidateReports(queryClient: QueryClient, organizationId: OrganizationIdInput, isLogged: boolean) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: reportsRootKey(organizationId) }),
    isLogged ? invalidateActivity(queryClient, organizationId) : null,
  ]);
}

/** Saves a report: creates it without an id, replaces it with one. */
export function useSaveReport(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, input }: { reportId: string | null; input: CustomReportInput }) =>
      reportId
        ? api.put<CustomReport>(reportPath(reportId), input)
        : api.post<CustomReport>('/custom-reports', input),
    onSuccess: (_report, { reportId }) => invalidateReports(queryClient, organizationId, reportId === null),
  });
}

export function useDeleteReport(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reportId: string) => api.delete<void>(reportPath(reportId)),
    onSuccess: () => invalidateReports(queryClient, organizationId, false),
  });
}

export function useDuplicateReport(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reportId: string) => api.post<CustomReport>(`${reportPath(reportId)}/duplicate`),
    onSuccess: () => invalidateReports(queryClient, organizationId, true),
  });
}

/** Switches the public link on or off, or (`rotate`) replaces it. */
export function useReportSharing(organizationId: string | null | undefined, reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { isPublic: boolean } | 'rotate') =>
      change === 'rotate'
        ? api.post<ReportSharing>(`${reportPath(reportId)}/public/rotate`)
        : api.put<ReportSharing>(`${reportPath(reportId)}/public`, change),
    onSuccess: (sharing) => {
      queryClient.setQueryData<CustomReport>(
        reportQueryOptions(organizationId, reportId).queryKey,
        (report) => (report ? { ...report, ...sharing } : report),
      );
      // The list shows the share status; sharing and unsharing are logged in the activity feed.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: [...reportsRootKey(organizationId), 'list'] }),
        invalidateActivity(queryClient, organizationId),
      ]);
    },
  });
}

export type GenerateReportRequest = z.input<typeof generateReportInput>;

/** Drafts a report from a sentence; `choices` answer the generator's questions back (which course was meant). */
export function useGenerateReport() {
  return useMutation({
    mutationFn: (input: GenerateReportRequest) =>
      api.post<GenerateReportResponse>('/custom-reports/generate', input),
  });
}

/** What a share token looks like (the server makes 43 base64url characters). */
export const SHARE_TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/** `GET /api/public-reports/:token`, without a session; a link that cannot be a token is not asked about. */
export function publicReportQueryOptions(token: string) {
  return queryOptions({
    enabled: SHARE_TOKEN_SHAPE.test(token),
    queryKey: [...sharedViewKey('report'), token] as const,
    // Read again by the page that shows it (see useFollowUpWhileRefreshing), it is not another visit.
    queryFn: ({ signal, client, queryKey }) =>
      api.get<PublicReportResponse>(`/public-reports/${encodeURIComponent(token)}`, {
        query: { followUp: client.getQueryData(queryKey) ? true : undefined },
        signal,
      }),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export function usePublicReport(token: string) {
  const query = useQuery(publicReportQueryOptions(token));
  useFollowUpWhileRefreshing(reportFigures(query.data?.data), query.dataUpdatedAt, query.refetch);
  return query;
}
