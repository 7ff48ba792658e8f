import type { Database } from '../client';
import {
  chatbotVariables,
  chatbots,
  learnerChatbotVariableValues,
  toTypedValue,
  type Chatbot,
  type ChatbotVariable,
  type LearnerChatbotVariableValue,
  type NewChatbot,
  type NewChatbotVariable,
  type NewLearnerChatbotVariableValue,
  type VariableDataType,
} from '../schema';
import { nextSequence, onlyRow } from './sequence';

type Tenant = { organizationId: string };

export function buildChatbot(overrides: Partial<NewChatbot> & Tenant): NewChatbot {
  return { name: `Agent ${nextSequence()}`, ...overrides };
}

export async function insertChatbot(db: Database, overrides: Partial<NewChatbot> & Tenant): Promise<Chatbot> {
  return onlyRow(await db.insert(chatbots).values(buildChatbot(overrides)).returning());
}

export function buildChatbotVariable(
  overrides: Partial<NewChatbotVariable> & Tenant & Pick<NewChatbotVariable, 'chatbotId'>,
): NewChatbotVariable {
  const n = nextSequence();
  return { name: `agent_variable_${n}`, title: `Agent variable ${n}`, dataType: 'text', ...overrides };
}

export async function insertChatbotVariable(
  db: Database,
  overrides: Partial<NewChatbotVariable> & Tenant & Pick<NewChatbotVariable, 'chatbotId'>,
): Promise<ChatbotVariable> {
  return onlyRow(await db.insert(chatbotVariables).values(buildChatbotVariable(overrides)).returning());
}

type CaptureRefs = Tenant & Pick<NewLearnerChatbotVariableValue, 'chatbotVariableId' | 'learnerId'>;

/**
 * A value an agent captured. Pass `raw` (and the variable's `dataType`, a
 * choice as `text`) to fill `value` and the typed column as the chat does,
 * or set the columns yourself.
 */
export function buildChatbotVariableValue(
  overrides: Partial<NewLearnerChatbotVariableValue> &
    CaptureRefs & { raw?: string | number | boolean | Date | null; dataType?: VariableDataType },
): NewLearnerChatbotVariableValue {
  const { raw, dataType, ...columns } = overrides;
  const typed = raw === undefined ? {} : toTypedValue(dataType ?? 'text', raw);
  return { ...typed, ...columns };
}

export async function insertChatbotVariableValue(
  db: Database,
  overrides: Parameters<typeof buildChatbotVariableValue>[0],
): Promise<LearnerChatbotVariableValue> {
  return onlyRow(
    await db.insert(learnerChatbotVariableValues).values(buildChatbotVariableValue(overrides)).returning(),
  );
}
