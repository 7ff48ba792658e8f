import type { ActionType, GeneratePipelineResponse } from '@courselens/contracts';

/**
 * What the generator reads a sentence against: the organization's own
 * names and ids (never a learner's data). The time zone is the one schedules
 * run in; null when the organization has not set one.
 */
export type PipelineGeneratorCatalog = {
  timeZone: string | null;
  courses: { id: string; title: string }[];
  variables: {
    id: string;
    courseId: string;
    courseTitle: string;
    name: string;
    title: string | null;
    dataType: string;
  }[];
  actions: { id: string; name: string; type: ActionType; config: Record<string, unknown> }[];
  chatbots: { id: string; name: string }[];
};

export type CatalogCourse = PipelineGeneratorCatalog['courses'][number];
export type CatalogVariable = PipelineGeneratorCatalog['variables'][number];
export type CatalogAction = PipelineGeneratorCatalog['actions'][number];

/** What both engines answer. */
export type GeneratedPipeline = GeneratePipelineResponse;
export type GeneratedDraft = GeneratedPipeline['draft'];
export type Ambiguity = GeneratedPipeline['ambiguities'][number];
export type MissingAction = GeneratedPipeline['missingActions'][number];
export type OpenSetting = GeneratedPipeline['openSettings'][number];

/** Answers to questions back: the phrase asked about, and the id picked for it. */
export type GeneratorChoices = Readonly<Record<string, string>>;
