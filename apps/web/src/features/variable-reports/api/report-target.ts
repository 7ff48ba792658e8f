import type { variableSourceQuery } from '@courselens/contracts';
import type { Params } from 'react-router';
import type { z } from 'zod';

import type { ReportView } from '@/config/paths';
import { organizationDomainKey, sharedViewKey, type OrganizationIdInput } from '@/lib/query-keys';

/**
 * Whose variables an organization-wide report reads: the courses' (the
 * default) or those custom AI agents capture, where the answer's "courses"
 * are the agents.
 */
export type VariableSource = z.output<typeof variableSourceQuery>['source'];

/**
 * Which variable a report screen reads, and through which endpoints: every
 * variable of a name across the organization's courses or agents, one
 * course's variable, or one course's or one agent's shared variable (public,
 * by token; `courseId` names the agent then).
 */
export type VariableReportTarget =
  | { kind: 'variable'; source: VariableSource; name: string }
  | { kind: 'course_variable'; courseId: string; name: string }
  | { kind: 'shared'; source: VariableSource; courseId: string; name: string; token: string };

/**
 * The report routes, each naming its variable its own way in the URL. The
 * chatbot route reads an organization-wide target (`source: 'chatbot'`):
 * the API answers it through the same endpoints. The shared chatbot route
 * names its agent in the query (`?courseId=`), as the report's agent filter
 * does, so a filtered report and its shared link read alike.
 */
export type VariableReportRoute =
  VariableReportTarget['kind'] | 'chatbot_variable' | 'shared_chatbot_variable';

export type VariableEndpoint = ReportView | 'export' | 'history';

// The server answers 404 for anything else; deciding here saves a request that can only fail.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The variable a report route's URL names, for its page and its loader
 * alike; null when the URL cannot name one (a course id that is no UUID, a
 * shared link without its token), which the page reports without asking.
 */
export function variableReportTargetOf(
  route: VariableReportRoute,
  params: Params,
  searchParams: URLSearchParams,
): VariableReportTarget | null {
  if (route === 'variable') return { kind: 'variable', source: 'course', name: params.variable ?? '' };
  const name = params.variableName ?? '';
  if (route === 'chatbot_variable') return { kind: 'variable', source: 'chatbot', name };
  const isSharedAgent = route === 'shared_chatbot_variable';
  const courseId = (isSharedAgent ? searchParams.get('courseId') : params.courseId) ?? '';
  if (!UUID.test(courseId)) return null;
  if (route === 'course_variable') return { kind: route, courseId, name };
  const token = searchParams.get('token') ?? '';
  if (!token) return null;
  return { kind: 'shared', source: isSharedAgent ? 'chatbot' : 'course', courseId, name, token };
}

/** Whose variable a target reads: the courses' or the custom AI agents' (its "courses" are agents). */
export function sourceOf(target: VariableReportTarget): VariableSource {
  return target.kind === 'course_variable' ? 'course' : target.source;
}

/**
 * Whether the report reads the variables custom AI agents capture across the
 * organization: the members' page, with its links to each agent. A shared
 * agent's view is no such page (see {@link sourceOf}).
 */
export function isChatbotTarget(target: VariableReportTarget): boolean {
  return target.kind === 'variable' && target.source === 'chatbot';
}

const enc = encodeURIComponent;

/** The API path and the query that names the variable, for one endpoint of a target. */
export function variableEndpoint(
  target: VariableReportTarget,
  endpoint: VariableEndpoint,
): { path: string; query: Record<string, string> } {
  switch (target.kind) {
    case 'variable':
      return {
        path: `/variable-reports/${endpoint}`,
        // `course` is the server's default: course reports keep the URLs they always had.
        query: target.source === 'chatbot' ? { name: target.name, source: 'chatbot' } : { name: target.name },
      };
    case 'course_variable':
      return {
        path: `/courses/${enc(target.courseId)}/variables/${enc(target.name)}/${endpoint}`,
        query: {},
      };
    case 'shared':
      return {
        path: `/shared/${target.source === 'chatbot' ? 'chatbot' : 'course'}-variables/${endpoint}`,
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
