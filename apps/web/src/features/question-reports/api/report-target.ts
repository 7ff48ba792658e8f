import type { Params } from 'react-router';

import type { ReportView } from '@/config/paths';
import { organizationDomainKey, sharedViewKey, type OrganizationIdInput } from '@/lib/query-keys';

/** A question's report as a member sees it, or shared without sign-in through its token. */
export type QuestionReportTarget =
  { kind: 'question'; id: string } | { kind: 'shared'; id: string; token: string };

export type QuestionEndpoint = ReportView | 'report/export';

// The server answers 404 for anything else; deciding here saves a request that can only fail.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The question a report route's URL names, for its page and its loader
 * alike; null when the URL cannot name one (an id that is no UUID, a shared
 * link without its token), which the page reports without asking.
 */
export function questionReportTargetOf(
  kind: QuestionReportTarget['kind'],
  params: Params,
  searchParams: URLSearchParams,
): QuestionReportTarget | null {
  const id = params.id ?? '';
  if (!UUID.test(id)) return null;
  if (kind === 'question') return { kind, id };
  const token = searchParams.get('token') ?? '';
  return token ? { kind, id, token } : null;
}

export function questionEndpoint(
  target: QuestionReportTarget,
  endpoint: QuestionEndpoint,
): { path: string; query: Record<string, string> } {
  const id = encodeURIComponent(target.id);
  return target.kind === 'question'
    ? { path: `/questions/${id}/${endpoint}`, query: {} }
    : { path: `/shared/questions/${id}/${endpoint}`, query: { token: target.token } };
}

/** Query keys of a question's report start here: the organization's, or the shared view's (no organization). */
export function questionReportKey(organizationId: OrganizationIdInput, target: QuestionReportTarget) {
  return target.kind === 'shared'
    ? ([...sharedViewKey('question-report'), target] as const)
    : ([...organizationDomainKey(organizationId, 'question-reports'), target] as const);
}
