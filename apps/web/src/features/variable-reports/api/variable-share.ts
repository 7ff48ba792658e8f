import type { ShareSettings } from '@courselens/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/**
 * What a variable report shares, by its id: one course's variable, or one
 * custom AI agent's (the server shares an agent's variable per agent, never
 * every agent's of a name at once).
 */
export type VariableShareSubject = { kind: 'variable' | 'chatbot_variable'; id: string | null };

const enc = encodeURIComponent;

function sharePath({ kind, id }: VariableShareSubject): string {
  return kind === 'chatbot_variable'
    ? `/chatbot-variables/${enc(id ?? '')}/share`
    : `/variables/${enc(id ?? '')}/share`;
}

function shareQueryOptions(organizationId: string | null | undefined, subject: VariableShareSubject) {
  const domain = organizationDomainKey(organizationId, 'variable-share');
  return queryOptions({
    // A course variable's key is the one it always had; an agent's is kept apart beside it.
    queryKey: subject.kind === 'variable' ? [...domain, subject.id] : [...domain, 'chatbot', subject.id],
    queryFn: ({ signal }) => api.get<ShareSettings>(sharePath(subject), { signal }),
    enabled: Boolean(organizationId && subject.id),
  });
}

export function variableShareQueryOptions(
  organizationId: string | null | undefined,
  variableId: string | null,
) {
  return shareQueryOptions(organizationId, { kind: 'variable', id: variableId });
}

export function useVariableShare(organizationId: string | null | undefined, subject: VariableShareSubject) {
  return useQuery(shareQueryOptions(organizationId, subject));
}

/** Switches sharing (`{ enabled }`) or replaces the link (`'rotate'`); the answer is the new settings. */
export function useChangeVariableShare(
  organizationId: string | null | undefined,
  subject: VariableShareSubject,
) {
  const queryClient = useQueryClient();
  const { queryKey } = shareQueryOptions(organizationId, subject);
  return useMutation({
    mutationFn: (change: { enabled: boolean } | 'rotate') =>
      change === 'rotate'
        ? api.post<ShareSettings>(`${sharePath(subject)}/rotate`)
        : api.put<ShareSettings>(sharePath(subject), change),
    onSuccess: (settings) => queryClient.setQueryData(queryKey, settings),
  });
}
