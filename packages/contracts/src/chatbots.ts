import { z } from 'zod';
import { uuidSchema } from './ids';
import { listQuerySchema, paginatedSchema, queryBoolean } from './list';

/**
 * Custom AI agents (chatbots): instructions, knowledge to answer from, and
 * variables to capture from the learner. The learner talks to an agent on a
 * public page (`/chat/:id`, embeddable in a frame) and is known by e-mail, so
 * a captured value lands on the same learner as their course data.
 */

export const CHATBOT_VARIABLE_TYPES = ['text', 'number', 'boolean', 'date', 'choice'] as const;
export type ChatbotVariableType = (typeof CHATBOT_VARIABLE_TYPES)[number];

export const CHATBOT_VARIABLE_TYPE_LABELS: Record<ChatbotVariableType, string> = {
  text: 'Text',
  number: 'Number',
  boolean: 'Yes / no',
  date: 'Date',
  choice: 'Choice',
};

export const KNOWLEDGE_FORMATS = ['markdown', 'text'] as const;
export type KnowledgeFormat = (typeof KNOWLEDGE_FORMATS)[number];

/** Which engine wrote a reply. */
export const CHAT_ENGINES = ['builtin', 'llm'] as const;
export type ChatEngineName = (typeof CHAT_ENGINES)[number];

export const MAX_CHATBOT_NAME_LENGTH = 200;
export const MAX_CHATBOT_DESCRIPTION_LENGTH = 2_000;
export const MAX_CHATBOT_INSTRUCTIONS_LENGTH = 20_000;
export const MAX_WELCOME_MESSAGE_LENGTH = 2_000;
/** Knowledge text and documents together, in characters: what the index and a prompt can hold. */
export const MAX_KNOWLEDGE_CHARS = 200_000;
export const MAX_KNOWLEDGE_DOCUMENTS = 20;
export const MAX_KNOWLEDGE_TITLE_LENGTH = 200;
/** An uploaded file, before its text is extracted. */
export const MAX_KNOWLEDGE_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_CHATBOT_VARIABLES = 30;
export const MAX_CHATBOT_VARIABLE_NAME_LENGTH = 64;
export const MAX_CHATBOT_VARIABLE_TITLE_LENGTH = 200;
export const MAX_CHATBOT_QUESTION_LENGTH = 500;
export const MAX_CHOICE_OPTIONS = 50;
export const MAX_CHOICE_OPTION_LENGTH = 200;
export const MAX_CHAT_MESSAGE_LENGTH = 2_000;
/** A conversation's learner messages; a longer one is closed and a new one starts. */
export const MAX_CHAT_TURNS = 200;
export const MAX_AVATAR_LENGTH = 8;
/** Course variables one chatbot variable feeds. */
export const MAX_DESTINATIONS = 20;
export const DEFAULT_CHATBOT_COLOR = '#4f46e5';

/** Chat messages a visitor (client address) may send per minute, and per agent per hour. */
export const CHAT_MESSAGES_PER_MINUTE = 30;
export const CHAT_MESSAGES_PER_HOUR = 600;

export const CHATBOT_MESSAGES = {
  notFound: 'Chatbot not found',
  sessionNotFound: 'Conversation not found',
  inactive: 'This assistant is switched off at the moment. Please try again later.',
  learnerRequired: 'Enter your e-mail address to start the conversation',
  learnerMismatch: 'This conversation belongs to another learner',
  conversationFull: `This conversation has reached ${MAX_CHAT_TURNS} messages. Start a new conversation to go on.`,
  nameRequired: 'Name is required',
  duplicateVariable: (name: string) => `Two variables are named "${name}": each variable needs its own name`,
  knowledgeTooLong: `Knowledge must be at most ${MAX_KNOWLEDGE_CHARS.toLocaleString('en-US')} characters in all (text and documents together)`,
  variableNamePattern:
    'Variable names start with a letter and use only letters, digits, spaces, dots, dashes and underscores (e.g. team_size)',
  choiceNeedsOptions: 'A choice variable needs at least two options',
  duplicateOption: (option: string) => `The option "${option}" is listed twice`,
  minAboveMax: 'The minimum must not be above the maximum',
  invalidPattern: 'The pattern is not a valid regular expression',
  invalidColor: 'Colour must be a hex colour such as #4f46e5',
  unreadableFile: (name: string) =>
    `"${name}" could not be read: upload a .md, .txt or .pdf file with text in it`,
  unsupportedFile: (name: string) => `"${name}" is not a .md, .txt or .pdf file`,
  destinationNotFound: 'A destination variable does not exist (any more): choose a variable of a course',
  fileTooLarge: (name: string) => `"${name}" is larger than ${MAX_KNOWLEDGE_FILE_BYTES / 1024 / 1024} MB`,
} as const;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')} characters long`);

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isoDay = (label: string) =>
  z
    .string({ error: `${label} must be a date` })
    .regex(ISO_DAY, `${label} must be a date as YYYY-MM-DD`)
    .refine((value) => !Number.isNaN(Date.parse(value)), `${label} must be a real date`);

export const chatbotVariableValidationSchema = z
  .object({
    min: z.number({ error: 'Minimum must be a number' }).finite().optional(),
    max: z.number({ error: 'Maximum must be a number' }).finite().optional(),
    maxLength: z
      .number({ error: 'Maximum length must be a number' })
      .int('Maximum length must be a whole number')
      .min(1, 'Maximum length must be at least 1')
      .max(10_000, 'Maximum length must be at most 10,000')
      .optional(),
    pattern: z.string().max(500, 'The pattern must be at most 500 characters long').optional(),
    minDate: isoDay('Earliest date').optional(),
    maxDate: isoDay('Latest date').optional(),
  })
  .superRefine((value, context) => {
    if (value.min !== undefined && value.max !== undefined && value.min > value.max) {
      context.addIssue({ code: 'custom', path: ['min'], message: CHATBOT_MESSAGES.minAboveMax });
    }
    if (value.minDate && value.maxDate && value.minDate > value.maxDate) {
      context.addIssue({ code: 'custom', path: ['minDate'], message: CHATBOT_MESSAGES.minAboveMax });
    }
    if (value.pattern) {
      try {
        new RegExp(value.pattern, 'iu');
      } catch {
        context.addIssue({ code: 'custom', path: ['pattern'], message: CHATBOT_MESSAGES.invalidPattern });
      }
    }
  });
export type ChatbotVariableValidation = z.infer<typeof chatbotVariableValidationSchema>;

const VARIABLE_NAME = /^\p{L}[\p{L}\p{N} _.-]*$/u;

/** A person's words for a machine name: "team_size" → "Team size". */
export function titleFromName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The question asked when the agent's author wrote none. */
export function defaultQuestion(title: string, type: ChatbotVariableType): string {
  const what = title.charAt(0).toLowerCase() + title.slice(1);
  return type === 'boolean' ? `${title}?` : `What is your ${what}?`;
}

/**
 * One variable to capture. `type` may also arrive as `dataType` or
 * `data_type` (the column's name in the spec), and the title and question
 * default from the name, so a minimal `{ name, type }` is enough.
 */
export const chatbotVariableInput = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const value = raw as Record<string, unknown>;
    if (value.type !== undefined) return value;
    const type = value.dataType ?? value.data_type;
    return type === undefined ? value : { ...value, type };
  },
  z
    .object({
      name: z
        .string({ error: 'Variable name is required' })
        .trim()
        .min(1, 'Variable name is required')
        .max(
          MAX_CHATBOT_VARIABLE_NAME_LENGTH,
          `Variable name must be at most ${MAX_CHATBOT_VARIABLE_NAME_LENGTH} characters long`,
        )
        .regex(VARIABLE_NAME, CHATBOT_MESSAGES.variableNamePattern),
      title: text('Title', MAX_CHATBOT_VARIABLE_TITLE_LENGTH).nullish(),
      type: z
        .enum(CHATBOT_VARIABLE_TYPES, {
          error: `Type must be one of ${CHATBOT_VARIABLE_TYPES.join(', ')}`,
        })
        .default('text'),
      question: text('Question', MAX_CHATBOT_QUESTION_LENGTH).nullish(),
      description: text('Description', MAX_CHATBOT_DESCRIPTION_LENGTH).nullish(),
      required: z.boolean({ error: 'Required must be true or false' }).default(true),
      options: z
        .array(text('Option', MAX_CHOICE_OPTION_LENGTH).min(1, 'An option cannot be empty'), {
          error: 'Options must be a list of texts',
        })
        .max(MAX_CHOICE_OPTIONS, `A choice variable has at most ${MAX_CHOICE_OPTIONS} options`)
        .optional(),
      validation: chatbotVariableValidationSchema.nullish(),
      /** Course variables each captured value is also stored in (the chatbot variable mappings). */
      destinationVariableIds: z
        .array(uuidSchema(CHATBOT_MESSAGES.destinationNotFound), {
          error: 'Destination variables must be a list of variable ids',
        })
        .max(MAX_DESTINATIONS, `A variable feeds at most ${MAX_DESTINATIONS} course variables`)
        .default([]),
    })
    .superRefine((value, context) => {
      if (value.type === 'choice') {
        const options = value.options ?? [];
        if (options.length < 2) {
          context.addIssue({
            code: 'custom',
            path: ['options'],
            message: CHATBOT_MESSAGES.choiceNeedsOptions,
          });
        }
        const seen = new Set<string>();
        for (const option of options) {
          const key = option.toLowerCase();
          if (seen.has(key)) {
            context.addIssue({
              code: 'custom',
              path: ['options'],
              message: CHATBOT_MESSAGES.duplicateOption(option),
            });
          }
          seen.add(key);
        }
      }
    })
    .transform((value) => {
      const title = value.title?.trim() || titleFromName(value.name);
      return {
        name: value.name,
        title,
        type: value.type,
        question: value.question?.trim() || defaultQuestion(title, value.type),
        description: value.description?.trim() || null,
        required: value.required,
        options: value.type === 'choice' ? (value.options ?? []) : [],
        validation: value.validation ?? null,
        destinationVariableIds: [...new Set(value.destinationVariableIds)],
      };
    }),
);
export type ChatbotVariableInput = z.input<typeof chatbotVariableInput>;
export type ChatbotVariableSpec = z.output<typeof chatbotVariableInput>;

export const knowledgeDocumentInput = z.object({
  title: text('Document title', MAX_KNOWLEDGE_TITLE_LENGTH).min(1, 'Document title is required'),
  format: z.enum(KNOWLEDGE_FORMATS, { error: 'Format must be markdown or text' }).default('markdown'),
  text: z
    .string({ error: 'Document text must be text' })
    .max(MAX_KNOWLEDGE_CHARS, CHATBOT_MESSAGES.knowledgeTooLong),
});
export type KnowledgeDocumentInput = z.input<typeof knowledgeDocumentInput>;

const hexColor = z
  .string({ error: CHATBOT_MESSAGES.invalidColor })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, CHATBOT_MESSAGES.invalidColor)
  .transform((value) => value.toLowerCase());

const chatbotFields = {
  name: z
    .string({ error: CHATBOT_MESSAGES.nameRequired })
    .trim()
    .min(1, CHATBOT_MESSAGES.nameRequired)
    .max(MAX_CHATBOT_NAME_LENGTH, `Name must be at most ${MAX_CHATBOT_NAME_LENGTH} characters long`),
  description: text('Description', MAX_CHATBOT_DESCRIPTION_LENGTH).nullish(),
  instructions: text('Instructions', MAX_CHATBOT_INSTRUCTIONS_LENGTH).default(''),
  welcomeMessage: text('Welcome message', MAX_WELCOME_MESSAGE_LENGTH).nullish(),
  /** Knowledge typed in the form (markdown). */
  knowledge: z
    .string({ error: 'Knowledge must be text' })
    .max(MAX_KNOWLEDGE_CHARS, CHATBOT_MESSAGES.knowledgeTooLong)
    .default(''),
  /** Knowledge from uploaded files (their extracted text). */
  documents: z
    .array(knowledgeDocumentInput)
    .max(MAX_KNOWLEDGE_DOCUMENTS, `An agent has at most ${MAX_KNOWLEDGE_DOCUMENTS} documents`)
    .default([]),
  variables: z
    .array(chatbotVariableInput)
    .max(MAX_CHATBOT_VARIABLES, `An agent captures at most ${MAX_CHATBOT_VARIABLES} variables`)
    .default([]),
  color: hexColor.default(DEFAULT_CHATBOT_COLOR),
  avatar: text('Avatar', MAX_AVATAR_LENGTH).nullish(),
  active: z.boolean({ error: 'Active must be true or false' }).default(true),
};

function checkAgent(
  value: { knowledge: string; documents: { text: string }[]; variables: ChatbotVariableSpec[] },
  context: z.RefinementCtx,
) {
  const seen = new Set<string>();
  value.variables.forEach((variable, index) => {
    const key = variable.name.toLowerCase();
    if (seen.has(key)) {
      context.addIssue({
        code: 'custom',
        path: ['variables', index, 'name'],
        message: CHATBOT_MESSAGES.duplicateVariable(variable.name),
      });
    }
    seen.add(key);
  });
  const total = value.knowledge.length + value.documents.reduce((sum, d) => sum + d.text.length, 0);
  if (total > MAX_KNOWLEDGE_CHARS) {
    context.addIssue({ code: 'custom', path: ['knowledge'], message: CHATBOT_MESSAGES.knowledgeTooLong });
  }
}

/** Create an agent; also the whole body of an edit (`PUT`), which replaces the agent's settings. */
export const chatbotInput = z.object(chatbotFields).superRefine(checkAgent);
export type ChatbotInput = z.input<typeof chatbotInput>;
export type ChatbotSpec = z.output<typeof chatbotInput>;

export const chatbotParams = z.object({ chatbotId: uuidSchema(CHATBOT_MESSAGES.notFound) });
export const chatSessionParams = z.object({
  chatbotId: uuidSchema(CHATBOT_MESSAGES.notFound),
  sessionId: uuidSchema(CHATBOT_MESSAGES.sessionNotFound),
});

export const chatbotVariableSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  type: z.enum(CHATBOT_VARIABLE_TYPES),
  question: z.string(),
  description: z.string().nullable(),
  required: z.boolean(),
  options: z.array(z.string()),
  validation: chatbotVariableValidationSchema.nullable(),
  /** Course variables each captured value is also stored in. */
  destinationVariableIds: z.array(z.string()),
});
export type ChatbotVariable = z.infer<typeof chatbotVariableSchema>;

export const knowledgeDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  format: z.enum(KNOWLEDGE_FORMATS),
  text: z.string(),
  characters: z.number().int(),
});
export type KnowledgeDocument = z.infer<typeof knowledgeDocumentSchema>;

export const chatbotSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  instructions: z.string(),
  welcomeMessage: z.string().nullable(),
  knowledge: z.string(),
  documents: z.array(knowledgeDocumentSchema),
  variables: z.array(chatbotVariableSchema),
  color: z.string(),
  avatar: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Chatbot = z.infer<typeof chatbotSchema>;

export const CHATBOT_SORT_KEYS = ['name', 'createdAt', 'conversations', 'lastMessageAt'] as const;
export type ChatbotSortKey = (typeof CHATBOT_SORT_KEYS)[number];
export const listChatbotsQuery = listQuerySchema(CHATBOT_SORT_KEYS, { sort: 'createdAt', order: 'desc' });
export type ListChatbotsQuery = z.input<typeof listChatbotsQuery>;

export const chatbotListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  color: z.string(),
  avatar: z.string().nullable(),
  active: z.boolean(),
  variables: z.number().int(),
  conversations: z.number().int(),
  learners: z.number().int(),
  /** Share of conversations in which every required variable was captured (null: none yet). */
  captureRate: z.number().nullable(),
  lastMessageAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatbotListItem = z.infer<typeof chatbotListItemSchema>;
export const listChatbotsResponse = paginatedSchema(chatbotListItemSchema);
export type ListChatbotsResponse = z.infer<typeof listChatbotsResponse>;

/** What the public chat page may know of an agent: never its instructions or knowledge. */
export const publicChatbotSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  welcomeMessage: z.string().nullable(),
  /** How the agent opens a conversation: its welcome and first question (stored as a new conversation's first message). */
  opening: z.string(),
  color: z.string(),
  avatar: z.string().nullable(),
  active: z.boolean(),
  organization: z.string().nullable(),
});
export type PublicChatbot = z.infer<typeof publicChatbotSchema>;

export const chatLearnerInput = z.object({
  email: z
    .string({ error: 'learner.email must be an e-mail address' })
    .trim()
    .max(320, 'learner.email must be at most 320 characters long')
    .pipe(z.email('learner.email must be an e-mail address'))
    .transform((value) => value.toLowerCase()),
  name: text('learner.name', 200).nullish(),
});

export const sendChatMessageInput = z.object({
  message: z
    .string({ error: 'message must be text' })
    .trim()
    .min(1, 'Type a message first')
    .max(
      MAX_CHAT_MESSAGE_LENGTH,
      `A message must be at most ${MAX_CHAT_MESSAGE_LENGTH.toLocaleString('en-US')} characters long`,
    ),
  learner: chatLearnerInput.optional(),
  sessionId: uuidSchema(CHATBOT_MESSAGES.sessionNotFound).optional(),
});
export type SendChatMessageInput = z.input<typeof sendChatMessageInput>;

export const chatCitationSchema = z.object({ document: z.string(), title: z.string(), quote: z.string() });
export type ChatCitation = z.infer<typeof chatCitationSchema>;

export const chatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  engine: z.enum(CHAT_ENGINES).nullable(),
  citation: chatCitationSchema.nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const capturedValueSchema = z.union([z.string(), z.number(), z.boolean()]);

export const sendChatMessageResponse = z.object({
  sessionId: z.string(),
  /** The learner's message as stored. */
  message: chatMessageSchema,
  reply: chatMessageSchema,
  /** Every value captured in this conversation so far, by variable name. */
  captured: z.record(z.string(), capturedValueSchema),
  /** Variables this turn set or changed. */
  changed: z.array(z.string()),
  /** Every required variable is captured. */
  done: z.boolean(),
});
export type SendChatMessageResponse = z.infer<typeof sendChatMessageResponse>;

/** A learner reopening their conversation: the e-mail must be the conversation's. */
export const chatTranscriptQuery = z.object({ email: chatLearnerInput.shape.email });
export const chatTranscriptResponse = z.object({
  sessionId: z.string(),
  messages: z.array(chatMessageSchema),
  captured: z.record(z.string(), capturedValueSchema),
  done: z.boolean(),
});
export type ChatTranscriptResponse = z.infer<typeof chatTranscriptResponse>;

/** The events of a streamed reply (`Accept: text/event-stream`): text in pieces, then the whole answer. */
export const CHAT_STREAM_EVENTS = ['delta', 'done', 'error'] as const;

/** The latest value a chatbot captured for the learner, per chatbot variable. */
export const learnerChatbotVariableSchema = z.object({
  chatbotVariableId: z.string(),
  chatbotId: z.string(),
  chatbotName: z.string(),
  name: z.string(),
  title: z.string(),
  type: z.enum(CHATBOT_VARIABLE_TYPES),
  value: capturedValueSchema.nullable(),
  recordedAt: z.string(),
  sessionId: z.string().nullable(),
});
export type LearnerChatbotVariable = z.infer<typeof learnerChatbotVariableSchema>;
export const learnerChatbotVariablesResponse = z.object({ items: z.array(learnerChatbotVariableSchema) });
export type LearnerChatbotVariablesResponse = z.infer<typeof learnerChatbotVariablesResponse>;

export const CHAT_SESSION_SORT_KEYS = ['lastMessageAt', 'createdAt', 'messages'] as const;
export const listChatSessionsQuery = listQuerySchema(CHAT_SESSION_SORT_KEYS, {
  sort: 'lastMessageAt',
  order: 'desc',
}).extend({
  /** true: conversations where every required variable was captured; false: the others. */
  captured: queryBoolean.optional(),
});
export type ListChatSessionsQuery = z.input<typeof listChatSessionsQuery>;

export const chatSessionListItemSchema = z.object({
  id: z.string(),
  learnerId: z.string().nullable(),
  learnerEmail: z.string().nullable(),
  learnerName: z.string().nullable(),
  messages: z.number().int(),
  captured: z.record(z.string(), capturedValueSchema),
  done: z.boolean(),
  lastMessage: z.string().nullable(),
  lastMessageAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatSessionListItem = z.infer<typeof chatSessionListItemSchema>;
export const listChatSessionsResponse = paginatedSchema(chatSessionListItemSchema);
export type ListChatSessionsResponse = z.infer<typeof listChatSessionsResponse>;

export const chatSessionDetailSchema = chatSessionListItemSchema.extend({
  transcript: z.array(chatMessageSchema),
});
export type ChatSessionDetail = z.infer<typeof chatSessionDetailSchema>;

/** Per agent: how each variable is captured, and what the knowledge could not answer. */
export const chatbotInsightsSchema = z.object({
  conversations: z.number().int(),
  learners: z.number().int(),
  completed: z.number().int(),
  variables: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      required: z.boolean(),
      /** Conversations in which the agent asked for it. */
      asked: z.number().int(),
      captured: z.number().int(),
      rate: z.number().nullable(),
    }),
  ),
  knowledgeGaps: z.array(
    z.object({ question: z.string(), count: z.number().int(), lastAskedAt: z.string() }),
  ),
});
export type ChatbotInsights = z.infer<typeof chatbotInsightsSchema>;

/** The snippets that put an agent on a course page. */
export function chatEmbedSnippets(origin: string, chatbotId: string): { iframe: string; bubble: string } {
  const url = `${origin}/chat/${chatbotId}`;
  return {
    iframe: `<iframe src="${url}?email=LEARNER_EMAIL" title="Chat" style="width:100%;height:600px;border:0" allow="clipboard-write"></iframe>`,
    bubble: `<script src="${origin}/chat-bubble.js" data-chatbot="${chatbotId}" data-email="LEARNER_EMAIL" async></script>`,
  };
}
