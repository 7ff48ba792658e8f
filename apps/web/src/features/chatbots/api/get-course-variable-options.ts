import { MAX_PAGE_SIZE, type ListVariablesResponse, type VariableDataType } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** A course variable an agent's variable can also be stored in. */
export type CourseVariableOption = {
  id: string;
  name: string;
  title: string | null;
  dataType: VariableDataType;
  courseId: string;
  courseTitle: string;
};

/**
 * Pages read at most (of `MAX_PAGE_SIZE` variables each). The picker searches
 * in the browser, and a chosen variable needs its name wherever it sits in
 * the list, so every page is read; this only bounds an unusually large
 * organization.
 */
const MAX_PAGES = 50;

function getVariablesPage(page: number, signal: AbortSignal | undefined): Promise<ListVariablesResponse> {
  return api.get<ListVariablesResponse>('/variables', {
    query: { sort: 'course', order: 'asc', page, pageSize: MAX_PAGE_SIZE },
    signal,
  });
}

/**
 * `GET /api/variables`, every page: the variables of the organization's live
 * courses (the ones the server accepts as destinations), by course and then
 * by the name people read.
 */
export async function getCourseVariableOptions({ signal }: { signal?: AbortSignal } = {}): Promise<
  CourseVariableOption[]
> {
  const first = await getVariablesPage(1, signal);
  const pages = Math.min(Math.ceil(first.total / first.pageSize), MAX_PAGES);
  const rest = await Promise.all(
    Array.from({ length: Math.max(pages - 1, 0) }, (_, index) => getVariablesPage(index + 2, signal)),
  );
  // A variable added while the pages load shifts the rest by one: keep each id once.
  const byId = new Map<string, CourseVariableOption>();
  for (const item of [first, ...rest].flatMap((page) => page.items)) {
    byId.set(item.id, {
      id: item.id,
      name: item.name,
      title: item.title,
      dataType: item.dataType,
      courseId: item.courseId,
      courseTitle: item.courseTitle,
    });
  }
  return [...byId.values()].sort(
    (a, b) =>
      a.courseTitle.localeCompare(b.courseTitle) ||
      courseVariableName(a).localeCompare(courseVariableName(b)),
  );
}

/** The name people read: the title when the variable has one. */
export function courseVariableName(variable: Pick<CourseVariableOption, 'name' | 'title'>): string {
  return variable.title?.trim() || variable.name;
}

/** "Course · variable name", how the agent form lists a course variable. */
export function courseVariableLabel(variable: CourseVariableOption): string {
  return `${variable.courseTitle} · ${courseVariableName(variable)}`;
}

export function courseVariableOptionsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    // Under the variables' key, so a variable changed elsewhere refreshes the picker.
    queryKey: [...organizationDomainKey(organizationId, 'variables'), 'chatbot-destinations'] as const,
    queryFn: ({ signal }) => getCourseVariableOptions({ signal }),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useCourseVariableOptions(organizationId: OrganizationIdInput) {
  return useQuery(courseVariableOptionsQueryOptions(organizationId));
}
