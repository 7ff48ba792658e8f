import {
  chatbotInput,
  DEFAULT_CHATBOT_COLOR,
  type Chatbot,
  type ChatbotInput,
  type ChatbotVariable,
  type ChatbotVariableType,
  type KnowledgeFormat,
} from '@courselens/contracts';
import type { FieldErrors } from 'react-hook-form';

import { isApiError } from '@/lib/api-client';
import { fieldErrorsOf, issuePathParts, resolverOf, type PathIssue } from '@/lib/form-errors';

/**
 * The agent form's values: every field as the inputs hold it (numbers as
 * typed text, choice options as rows). `toChatbotInput` turns them into the
 * API's body, which the contract's `chatbotInput` checks, so the form and the
 * server refuse the same things with the same words.
 */

/** One option of a choice variable (react-hook-form's field arrays hold objects). */
export type OptionRow = { value: string };

export type VariableRow = {
  name: string;
  title: string;
  type: ChatbotVariableType;
  question: string;
  description: string;
  required: boolean;
  options: OptionRow[];
  min: string;
  max: string;
  maxLength: string;
  pattern: string;
  minDate: string;
  maxDate: string;
  /**
   * Ids of the course variables each captured value is also stored in. Kept
   * from the saved agent as is: an edit replaces the agent whole, so a row
   * that dropped them would delete the mappings.
   */
  destinationVariableIds: string[];
};

export type DocumentRow = { title: string; format: KnowledgeFormat; text: string };

export type ChatbotFormValues = {
  name: string;
  description: string;
  active: boolean;
  instructions: string;
  welcomeMessage: string;
  knowledge: string;
  documents: DocumentRow[];
  variables: VariableRow[];
  color: string;
  avatar: string;
};

export function emptyVariableRow(): VariableRow {
  return {
    name: '',
    title: '',
    type: 'text',
    question: '',
    description: '',
    required: true,
    options: [],
    min: '',
    max: '',
    maxLength: '',
    pattern: '',
    minDate: '',
    maxDate: '',
    destinationVariableIds: [],
  };
}

export function emptyChatbotFormValues(): ChatbotFormValues {
  return {
    name: '',
    description: '',
    active: true,
    instructions: '',
    welcomeMessage: '',
    knowledge: '',
    documents: [],
    variables: [],
    color: DEFAULT_CHATBOT_COLOR,
    avatar: '',
  };
}

const textOf = (value: number | string | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

function variableRowOf(variable: ChatbotVariable): VariableRow {
  const validation = variable.validation ?? {};
  return {
    name: variable.name,
    title: variable.title,
    type: variable.type,
    question: variable.question,
    description: variable.description ?? '',
    required: variable.required,
    options: variable.options.map((value) => ({ value })),
    min: textOf(validation.min),
    max: textOf(validation.max),
    maxLength: textOf(validation.maxLength),
    pattern: validation.pattern ?? '',
    minDate: validation.minDate ?? '',
    maxDate: validation.maxDate ?? '',
    destinationVariableIds: [...variable.destinationVariableIds],
  };
}

/** The form filled with a saved agent. */
export function formValuesFromChatbot(chatbot: Chatbot): ChatbotFormValues {
  return {
    name: chatbot.name,
    description: chatbot.description ?? '',
    active: chatbot.active,
    instructions: chatbot.instructions,
    welcomeMessage: chatbot.welcomeMessage ?? '',
    knowledge: chatbot.knowledge,
    documents: chatbot.documents.map(({ title, format, text }) => ({ title, format, text })),
    variables: chatbot.variables.map(variableRowOf),
    color: chatbot.color,
    avatar: chatbot.avatar ?? '',
  };
}

/** A number field as the API wants it: a number when it reads as one, else the text (refused with its message). */
function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

/** The checks of the variable's type that were filled in; null when none was. */
function validationOf(row: VariableRow): Record<string, number | string> | null {
  const validation: Record<string, number | string> = {};
  const put = (key: string, text: string, asNumber: boolean) => {
    if (text.trim() !== '') validation[key] = asNumber ? numberOrText(text) : text.trim();
  };
  switch (row.type) {
    case 'number':
      put('min', row.min, true);
      put('max', row.max, true);
      break;
    case 'text':
      put('maxLength', row.maxLength, true);
      // A pattern's spaces may matter: only an empty one is left out.
      if (row.pattern.trim() !== '') validation.pattern = row.pattern;
      break;
    case 'date':
      put('minDate', row.minDate, false);
      put('maxDate', row.maxDate, false);
      break;
    case 'boolean':
    case 'choice':
      break;
  }
  return Object.keys(validation).length > 0 ? validation : null;
}

const orNull = (text: string) => text.trim() || null;

/** The API's body for the form's values. */
export function toChatbotInput(values: ChatbotFormValues): ChatbotInput {
  return {
    name: values.name,
    description: orNull(values.description),
    instructions: values.instructions,
    welcomeMessage: orNull(values.welcomeMessage),
    knowledge: values.knowledge,
    documents: values.documents.map(({ title, format, text }) => ({ title, format, text })),
    variables: values.variables.map((row) => ({
      name: row.name,
      title: orNull(row.title),
      type: row.type,
      question: orNull(row.question),
      description: orNull(row.description),
      required: row.required,
      ...(row.type === 'choice' ? { options: row.options.map((option) => option.value) } : {}),
      validation: validationOf(row),
      destinationVariableIds: [...row.destinationVariableIds],
    })),
    color: values.color,
    avatar: orNull(values.avatar),
    active: values.active,
  };
}

/** Where a check of a variable lives in the API body (`validation.min`) and in the form (`min`). */
const VALIDATION_FIELDS = new Set(['min', 'max', 'maxLength', 'pattern', 'minDate', 'maxDate']);
const TOP_FIELDS = new Set([
  'name',
  'description',
  'active',
  'instructions',
  'welcomeMessage',
  'knowledge',
  'color',
  'avatar',
]);
const VARIABLE_FIELDS = new Set([
  'name',
  'title',
  'type',
  'question',
  'description',
  'required',
  // A problem with one of the ids (`destinationVariableIds.2`) shows under the whole picker.
  'destinationVariableIds',
]);
const DOCUMENT_FIELDS = new Set(['title', 'format', 'text']);

const isIndex = (part: string | undefined): part is string => part !== undefined && /^\d+$/.test(part);

/**
 * The form field a problem belongs to, from its path in the API body
 * (`['variables', 0, 'validation', 'min']`) or as the server writes it
 * (`body.variables.0.validation.min`); `root` when no field matches.
 */
export function formFieldOf(path: PathIssue['path']): string {
  const [head, index, field, sub] = issuePathParts(path);
  if (head === undefined) return 'root';
  if (TOP_FIELDS.has(head)) return head;
  if (head === 'documents') {
    if (!isIndex(index)) return 'documents';
    return field !== undefined && DOCUMENT_FIELDS.has(field)
      ? `documents.${index}.${field}`
      : `documents.${index}.text`;
  }
  if (head === 'variables') {
    if (!isIndex(index)) return 'variables';
    if (field === undefined) return `variables.${index}.name`;
    if (VARIABLE_FIELDS.has(field)) return `variables.${index}.${field}`;
    if (field === 'options')
      return isIndex(sub) ? `variables.${index}.options.${sub}.value` : `variables.${index}.options`;
    if (field === 'validation') {
      return sub !== undefined && VALIDATION_FIELDS.has(sub)
        ? `variables.${index}.${sub}`
        : `variables.${index}.name`;
    }
    return `variables.${index}.name`;
  }
  return 'root';
}

/** The problems of the form's values, placed on their fields, in the contract's words. */
export function validateChatbotForm(values: ChatbotFormValues): FieldErrors<ChatbotFormValues> {
  const parsed = chatbotInput.safeParse(toChatbotInput(values));
  return parsed.success ? {} : fieldErrorsOf(parsed.error.issues, formFieldOf);
}

/** react-hook-form's resolver: the contract's schema, through `toChatbotInput`. */
export const chatbotFormResolver = resolverOf(validateChatbotForm);

export type FieldProblem = { field: string; message: string };

/** The problems of a 400 that belong to fields; empty when the error is another kind or names no field. */
export function serverFieldProblems(error: unknown): FieldProblem[] {
  if (!isApiError(error) || error.status !== 400) return [];
  const problems = error.issues.map((issue) => ({ field: formFieldOf(issue.path), message: issue.message }));
  return problems.some((problem) => problem.field !== 'root') ? problems : [];
}

/** Characters of knowledge in all: the typed text and every document (the limit counts them together). */
export function knowledgeCharacters(values: Pick<ChatbotFormValues, 'knowledge' | 'documents'>): number {
  return values.knowledge.length + values.documents.reduce((sum, document) => sum + document.text.length, 0);
}
