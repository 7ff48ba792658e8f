import type {
  ActionType,
  CourseListResponse,
  ListActionsResponse,
  ListChatbotsResponse,
  ListVariablesResponse,
  VariableDataType,
} from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/**
 * What the node forms pick from: the organization's courses, variables,
 * actions and custom AI agents (chatbots). Each list sits under its own
 * domain's key, so a course, variable, action or agent created, renamed or
 * deleted elsewhere refreshes the pickers.
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
export type ChatbotOption = { id: string; name: string; active: boolean };

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

export async function getChatbotOptions({ signal }: { signal?: AbortSignal } = {}): Promise<ChatbotOption[]> {
  const page = await api.get<ListChatbotsResponse>('/chatbots', {
    query: { sort: 'name', order: 'asc', pageSize: OPTIONS_LIMIT },
    signal,
  });
  return page.items.map((chatbot) => ({ id: chatbot.id, name: chatbot.name, active: chatbot.active }));
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

export function chatbotOptionsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'chatbots'), 'pipeline-options'] as const,
    queryFn: ({ signal }) => getChatbotOptions({ signal }),
    enabled: Boolean(organizationId),
    staleTime: OPTIONS_STALE_MS,
    // With no agent yet the form sends people to Custom AI Agents: coming back shows the agent just created.
    refetchOnWindowFocus: 'always',
  });
}

export type EditorOptions = {
  courses: CourseOption[];
  variables: VariableOption[];
  actions: ActionOption[];
  chatbots: ChatbotOption[];
  isLoading: boolean;
};

const NONE: never[] = [];

/** The four lists together, empty while they load. */
export function useEditorOptions(organizationId: OrganizationIdInput): EditorOptions {
  const courses = useQuery(courseOptionsQueryOptions(organizationId));
  const variables = useQuery(variableOptionsQueryOptions(organizationId));
  const actions = useQuery(actionOptionsQueryOptions(organizationId));
  const chatbots = useQuery(chatbotOptionsQueryOptions(organizationId));
  return {
    courses: courses.data ?? NONE,
    variables: variables.data ?? NONE,
    actions: actions.data ?? NONE,
    chatbots: chatbots.data ?? NONE,
    isLoading: courses.isPending || variables.isPending || actions.isPending || chatbots.isPending,
  };
}
