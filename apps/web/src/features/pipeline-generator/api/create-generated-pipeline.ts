import type {
  CreatedAction,
  CreatePipelineInput,
  GeneratePipelineResponse,
  PipelineDetail,
  PipelineNodeInput,
} from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

type Draft = GeneratePipelineResponse['draft'];
type MissingAction = GeneratePipelineResponse['missingActions'][number];

export type GeneratedPipelineInput = {
  draft: Draft;
  /** The new actions to create, with what the person filled in (a webhook's address). */
  actions: (MissingAction & { config: Record<string, unknown> })[];
  /** Settings chosen in the review, by node: `{ destinationVariableId }` of a map node. */
  settings: Record<string, Record<string, string>>;
  /** Actions created by an earlier attempt that failed later: not created twice. */
  created: Record<string, CreatedAction>;
  onActionCreated?: (nodeId: string, action: CreatedAction) => void;
};

export type GeneratedPipelineResult = { pipeline: PipelineDetail; actions: CreatedAction[] };

type DraftNode = {
  id: string;
  type: string;
  position?: { x: number; y: number };
  data?: Record<string, unknown>;
};

/**
 * Saves a reviewed draft: first the new actions it proposes (`POST
 * /api/actions`), then the pipeline, off (`POST /api/pipelines`), its action
 * nodes pointing at the new actions.
 */
export async function createGeneratedPipeline(
  input: GeneratedPipelineInput,
): Promise<GeneratedPipelineResult> {
  const created: Record<string, CreatedAction> = { ...input.created };
  for (const action of input.actions) {
    if (created[action.nodeId]) continue;
    const saved = await api.post<CreatedAction>('/actions', {
      name: action.name,
      config: action.config,
    });
    created[action.nodeId] = saved;
    input.onActionCreated?.(action.nodeId, saved);
  }
  const nodes = (input.draft.nodes as DraftNode[]).map((node): PipelineNodeInput => {
    const data: Record<string, unknown> = { ...(node.data ?? {}), ...(input.settings[node.id] ?? {}) };
    const action = created[node.id];
    if (action) {
      delete data.proposedAction;
      data.actionId = action.id;
    }
    return { ...node, data } as PipelineNodeInput;
  });
  const body: CreatePipelineInput = {
    name: input.draft.name,
    description: input.draft.description,
    nodes,
    edges: input.draft.edges as CreatePipelineInput['edges'],
    active: false,
  };
  const pipeline = await api.post<PipelineDetail>('/pipelines', body);
  return { pipeline, actions: Object.values(created) };
}

export function useCreateGeneratedPipeline(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGeneratedPipeline,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'actions') }),
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'pipelines') }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
