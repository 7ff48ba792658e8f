import type { Params } from 'react-router';

import type { ReportView } from '@/config/paths';
import { organizationDomainKey, sharedViewKey, type OrganizationIdInput } from '@/lib/query-keys';

/**
 * Which variable a report screen reads, and through which endpoints: every
 * variable of a name across the organization, one course's variable, or a
 * shared course variable (public, by token).
 */
export type VariableReportTarget =
  | { kind: 'variable'; name: string }
  | { kind: 'course_variable'; courseId: string; name: string }
  | { kind: 'shared'; courseId: string; name: string; token: string };

export type VariableEndpoint = ReportView | 'export' | 'history';

// The server answers 404 for anything else; deciding here saves a request that can only fail.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The variable a report route's URL names, for its page and its loader
 * alike; null when the URL cannot name one (a course id that is no UUID, a
 * shared link without its token), which the page reports without asking.
 */
export function variableReportTargetOf(
  kind: VariableReportTarget['kind'],
  params: Params,
  searchParams: URLSearchParams,
): VariableReportTarget | null {
  if (kind === 'variable') return { kind, name: params.variable ?? '' };
  const courseId = params.courseId ?? '';
  const name = params.variableName ?? '';
  if (!UUID.test(courseId)) return null;
  if (kind === 'course_variable') return { kind, courseId, name };
  const token = searchParams.get('token') ?? '';
  return token ? { kind, courseId, name, token } : null;
}

const enc = encodeURIComponent;

/** The API path and the query that names the variable, for one endpoint of a target. */
export function variableEndpoint(
  target: VariableReportTarget,
  endpoint: VariableEndpoint,
): { path: string; query: Record<string, string> } {
  switch (target.kind) {
    case 'variable':
      return { path: `/variable-reports/${endpoint}`, query: { name: target.name } };
    case 'course_variable':
      return {
        path: `/courses/${enc(target.courseId)}/variables/${enc(target.name)}/${endpoint}`,
        query: {},
      };
    case 'shared':
      return {
        path: `/shared/course-variables/${endpoint}`,
        query: { courseId: target.courseId, name: target.name, token: target.token },
      };
  }
}

/** Query keys of a variable report start here: the organization's, or the shared view's (no organization). */
export function variableReportKey(organizationId: OrganizationIdInput, target: VariableReportTarget) {
  return target.kind === 'shared'
    ? ([...sharedViewKey('variable-report'), target] as const)
    : ([...organizationDomainKey(organizationId, 'variable-reports'), target] as const);
}
