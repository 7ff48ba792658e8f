import type {
  ActionType,
  CourseListResponse,
  ListActionsResponse,
  ListVariablesResponse,
  VariableDataType,
} from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/**
 * What the node forms pick from: the organization's courses, variables and
 * actions. Each list sits under its own domain's key, so a course, variable
 * or action created, renamed or deleted elsewhere refreshes the pickers.
 * At most this many of each are listed (by name); the pickers search them.
 */
const OPTIONS_LIMIT = 100;
const OPTIONS_STALE_MS = 60_000;

export type CourseOption = { id: string; title: string };
export type VariableOption = {
  id: string;
  name: string;
  title: string | null;
  dataType: VariableDataType;
  courseId: string;
  courseTitle: string;
};
export type ActionOption = { id: string; name: string; type: ActionType; active: boolean; target: string };

export async function getCourseOptions({ signal }: { signal?: AbortSignal } = {}): Promise<CourseOption[]> {
  const page = await api.get<CourseListResponse>('/courses', {
    query: { sort: 'title', order: 'asc', pageSize: OPTIONS_LIMIT },
    signal,
  });
  return page.items.map((course) => ({ id: course.id, title: course.courseTitle }));
}

export async function getVariableOptions({ signal }: { signal?: AbortSignal } = {}): Promise<
  VariableOption[]
> {
  const page = await api.get<ListVariablesResponse>('/variables', {
    query: { sort: 'name', order: 'asc', pageSize: OPTIONS_LIMIT },
    signal,
  });
  return page.items.map((variable) => ({
    id: variable.id,
    name: variable.name,
    title: variable.title,
    dataType: variable.dataType,
    courseId: variable.courseId,
    courseTitle: variable.courseTitle,
  }));
}

export async function getActionOptions({ signal }: { signal?: AbortSignal } = {}): Promise<ActionOption[]> {
  const page = await api.get<ListActionsResponse>('/actions', {
    query: { sort: 'name', order: 'asc', pageSize: OPTIONS_LIMIT },
    signal,
  });
  return page.items.map((action) => ({
    id: action.id,
    name: action.name,
    type: action.type,
    active: action.active,
    target: action.target,
  }));
}

export function courseOptionsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'courses'), 'pipeline-options'] as const,
    queryFn: ({ signal }) => getCourseOptions({ signal }),
    enabled: Boolean(organizationId),
    staleTime: OPTIONS_STALE_MS,
  });
}

export function variableOptionsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'variables'), 'pipeline-options'] as const,
    queryFn: ({ signal }) => getVariableOptions({ signal }),
    enabled: Boolean(organizationId),
    staleTime: OPTIONS_STALE_MS,
  });
}

export function actionOptionsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'actions'), 'pipeline-options'] as const,
    queryFn: ({ signal }) => getActionOptions({ signal }),
    enabled: Boolean(organizationId),
    staleTime: OPTIONS_STALE_MS,
    // "New action" opens in another tab: coming back shows the action just created.
    refetchOnWindowFocus: 'always',
  });
}

export type EditorOptions = {
  courses: CourseOption[];
  variables: VariableOption[];
  actions: ActionOption[];
  isLoading: boolean;
};

const NONE: never[] = [];

/** The three lists together, empty while they load. */
export function useEditorOptions(organizationId: OrganizationIdInput): EditorOptions {
  const courses = useQuery(courseOptionsQueryOptions(organizationId));
  const variables = useQuery(variableOptionsQueryOptions(organizationId));
  const actions = useQuery(actionOptionsQueryOptions(organizationId));
  return {
    courses: courses.data ?? NONE,
    variables: variables.data ?? NONE,
    actions: actions.data ?? NONE,
    isLoading: courses.isPending || variables.isPending || actions.isPending,
  };
}
