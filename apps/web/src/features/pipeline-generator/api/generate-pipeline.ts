import type { GeneratePipelineInput, GeneratePipelineResponse } from '@courselens/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `POST /api/pipelines/generate`: a sentence (and the answers to its questions back) becomes a draft. Saves nothing. */
export function generatePipeline(input: GeneratePipelineInput): Promise<GeneratePipelineResponse> {
  return api.post<GeneratePipelineResponse>('/pipelines/generate', input);
}

export function useGeneratePipeline() {
  return useMutation({ mutationFn: generatePipeline });
}
