import type { ReportData, ReportPreviewInput } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { reportsRootKey } from './custom-reports';

/** `POST /api/custom-reports/preview`: the data of a report being built, nothing saved. */
export function previewReport(input: ReportPreviewInput, signal?: AbortSignal) {
  return api.post<{ data: ReportData }>('/custom-reports/preview', input, { signal });
}

/**
 * The draft is the key, so each change asks once and going back to an
 * earlier draft reads the cache; the previous answer stays on screen while
 * the next one loads, so the preview does not flash.
 */
export function reportPreviewQueryOptions(
  organizationId: string | null | undefined,
  input: ReportPreviewInput,
) {
  return queryOptions({
    queryKey: [...reportsRootKey(organizationId), 'preview', input] as const,
    queryFn: ({ signal }) => previewReport(input, signal),
    enabled: Boolean(organizationId) && (input.items?.length ?? 0) > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
}

export function useReportPreview(organizationId: string | null | undefined, input: ReportPreviewInput) {
  return useQuery(reportPreviewQueryOptions(organizationId, input));
}
