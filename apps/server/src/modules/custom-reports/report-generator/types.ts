import type { GenerateReportResponse, ReportCatalog } from '@courselens/contracts';

/** What the generator answers (both engines): the draft, what it understood, what it did not, its questions back. */
export type GeneratedReport = GenerateReportResponse;
export type ReportDraft = GeneratedReport['draft'];
export type DraftItem = ReportDraft['items'][number];
export type Ambiguity = GeneratedReport['ambiguities'][number];
export type AmbiguityOption = Ambiguity['options'][number];

/** The user's answer to a question back: for the phrase, the id they picked among the options. */
export type GeneratorChoice = { phrase: string; id: string };

/**
 * The organization's names, and (when the caller knows them) the most
 * frequent values of its text variables by variable name, so "for sales"
 * can become the condition `department is Sales`. Without values such words
 * are reported as not found rather than guessed.
 */
export type GeneratorCatalog = ReportCatalog & {
  values?: { variableName: string; values: string[] }[];
};

export type CatalogCourse = ReportCatalog['courses'][number];
export type CatalogVariable = ReportCatalog['variables'][number];
export type CatalogChatbotVariable = ReportCatalog['chatbotVariables'][number];
export type CatalogQuestion = ReportCatalog['questions'][number];
