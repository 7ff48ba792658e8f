import { ACTION_TYPES, type ActionType } from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { LlmEngine } from '../../lib/llm';
import type { GeneratedPipeline, GeneratorChoices, PipelineGeneratorCatalog } from './generator/types';
import { generatePipelineDraft } from './pipeline-generator';
import { selectGeneratorCatalog } from './pipeline-generator.queries';

function isActionType(type: string): type is ActionType {
  return (ACTION_TYPES as readonly string[]).includes(type);
}

/** The names a sentence is read against: courses, their variables, actions and chatbots of one organization. */
export async function getGeneratorCatalog(
  db: Database,
  organizationId: string,
): Promise<PipelineGeneratorCatalog> {
  const rows = await selectGeneratorCatalog(db, organizationId);
  return {
    timeZone: null,
    courses: rows.courses.map((row) => ({ id: row.id, title: row.course_title })),
    variables: rows.variables.map((row) => ({
      id: row.id,
      courseId: row.course_id,
      courseTitle: row.course_title,
      name: row.name,
      title: row.title,
      dataType: row.data_type,
    })),
    actions: rows.actions.flatMap((row) =>
      isActionType(row.action_type)
        ? [{ id: row.id, name: row.name, type: row.action_type, config: {} }]
        : [],
    ),
    chatbots: rows.chatbots.map((row) => ({ id: row.id, name: row.name })),
  };
}

/**
 * A draft pipeline for a sentence, read against the organization's own
 * names (the LLM engine when configured). Nothing is saved: the person
 * reviews the draft, creates the actions it proposes, then the pipeline.
 */
export async function generatePipeline(
  db: Database,
  llm: LlmEngine | null,
  input: { organizationId: string; prompt: string; choices?: GeneratorChoices | undefined },
): Promise<GeneratedPipeline> {
  const catalog = await getGeneratorCatalog(db, input.organizationId);
  return generatePipelineDraft(input.prompt, catalog, llm, input.choices ?? {});
}
