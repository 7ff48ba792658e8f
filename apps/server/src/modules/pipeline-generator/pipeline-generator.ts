import type { LlmEngine } from '../../lib/llm';
import { LlmError } from '../../lib/llm';
import { generateBuiltin } from './generator/builtin';
import {
  LLM_SYSTEM,
  LlmDraftRefused,
  catalogForModel,
  choicesForModel,
  draftFromLlm,
  llmPipelineSchema,
} from './generator/llm';
import type { GeneratedPipeline, GeneratorChoices, PipelineGeneratorCatalog } from './generator/types';

// The natural-language pipeline generator: a training manager's sentence
// becomes a draft graph to review before saving. Two engines behind one
// entry: the built-in engine (generator/builtin.ts) reads the sentence
// against the organization's own names and the intents it knows; the LLM
// engine, when configured, gets the same names and ids and answers a graph
// that is checked node by node (generator/llm.ts). When the model fails or
// its draft cannot run, the built-in engine answers and says so.

/**
 * The draft for a sentence: the LLM engine when the app has one, else the
 * built-in one. `choices` answer an earlier call's questions back
 * (`ambiguities`): for a phrase, the id picked.
 */
export async function generatePipelineDraft(
  prompt: string,
  catalog: PipelineGeneratorCatalog,
  llm: LlmEngine | null,
  choices: GeneratorChoices = {},
): Promise<GeneratedPipeline> {
  if (!llm) return generateBuiltin(prompt, catalog, choices);
  let why: string;
  try {
    const answer = await llm.generateObject({
      system: LLM_SYSTEM.replace('{timeZone}', catalog.timeZone ?? '(the organization’s own)'),
      prompt: `Catalog of the organization:\n${catalogForModel(catalog)}${choicesForModel(choices, catalog)}\n\nRequest:\n${prompt}`,
      schema: llmPipelineSchema,
    });
    return draftFromLlm(answer, catalog, llm.model);
  } catch (error) {
    if (error instanceof LlmDraftRefused) why = `its draft could not run (${error.message})`;
    else if (error instanceof LlmError) why = 'it did not answer';
    else throw error;
  }
  const builtin = generateBuiltin(prompt, catalog, choices);
  return {
    ...builtin,
    unmapped: [
      `The language model’s draft was refused: ${why}. The built-in engine read your request instead`,
      ...builtin.unmapped,
    ],
  };
}
