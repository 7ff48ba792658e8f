// The shapes both chat engines share: what an agent is made of (its
// variables and knowledge), what one turn receives and what it answers. The
// built-in engine (builtin-engine.ts) and a future model-backed engine
// implement the same `ChatEngine`, so the routes never care which one runs.
// Plain types, no zod: the contracts package validates what arrives over
// HTTP, and these are what the service hands over after that.

export type VariableType = 'text' | 'number' | 'boolean' | 'date' | 'choice';

export type VariableValidation = {
  /** Number variables: inclusive bounds. */
  min?: number;
  max?: number;
  /** Text variables: the longest answer kept, in characters. */
  maxLength?: number;
  /** Text variables: a regular expression (source, no slashes) the answer must match, case-insensitive. */
  pattern?: string;
  /** Date variables: inclusive bounds as YYYY-MM-DD. */
  minDate?: string;
  maxDate?: string;
};

/** One value the agent collects from the learner. */
export type ChatVariable = {
  /** Machine name, unique within the agent ("session_date"). */
  name: string;
  /** What a person calls it ("Session date"): used in replies and as a cue word. */
  title: string;
  type: VariableType;
  /** The question the agent asks to get it. */
  question: string;
  required: boolean;
  /** Choice variables: the options, as they should be stored. */
  options?: readonly string[];
  validation?: VariableValidation;
};

/** Dates are stored as YYYY-MM-DD, choices as the option's own spelling. */
export type CapturedValue = string | number | boolean;
export type CapturedValues = Readonly<Record<string, CapturedValue>>;

export type KnowledgeDocument = {
  /** Shown as the source ("Workplace Safety Handbook"). */
  title: string;
  /** Markdown or plain text; PDF text is extracted before it gets here. */
  text: string;
  format: 'markdown' | 'text';
};

/** Everything an agent is configured with. Instructions matter to a model only. */
export type AgentConfig = {
  variables: readonly ChatVariable[];
  knowledge: readonly KnowledgeDocument[];
  instructions?: string;
  /** First line of the conversation, before the first question. */
  greeting?: string;
};

/** What the conversation remembers between turns (the routes store it with the chat). */
export type ChatState = {
  captured: CapturedValues;
  /** The variable the last reply asked for, so a bare "8" or "yes" knows where it goes. */
  askedVariable: string | null;
  /** Variables captured by the previous turn, so "actually it's 8" corrects the right one. */
  lastCaptured: readonly string[];
  /** Optional variables the learner declined ("skip", "no thanks"): not asked again. */
  skipped: readonly string[];
  /** Learner messages so far. */
  turns: number;
};

export const INITIAL_CHAT_STATE: ChatState = {
  captured: {},
  askedVariable: null,
  lastCaptured: [],
  skipped: [],
  turns: 0,
};

export type EngineInput = {
  /** The learner's message; empty to open the conversation. */
  message: string;
  state: ChatState;
  /** Relative dates ("tomorrow", "last Friday") are read against it. */
  now: Date;
  /** The conversation's recent messages, oldest first (a model reads them; the built-in engine keeps its state instead). */
  history?: readonly { role: 'user' | 'assistant'; content: string }[];
  /** Gets the reply's text as it is written, for engines that stream. */
  onDelta?: (text: string) => void;
};

export type Citation = {
  /** The document's title. */
  document: string;
  /** The passage's heading (or the document's title when it has none). */
  title: string;
  /** The quoted text, bounded in length. */
  quote: string;
};

export type SlotProblem = {
  variable: string;
  /** invalid: a value that fails validation; missing: no value found; ambiguous: two options fit. */
  kind: 'invalid' | 'missing' | 'ambiguous';
  /** What the learner is told, naming the problem ("Please give a number between 0 and 10."). */
  message: string;
};

export type EngineReply = {
  engine: 'builtin' | 'llm';
  /** What the learner sees. */
  text: string;
  /** The state to store for the next turn (captured values included). */
  state: ChatState;
  /** Variables set or changed by this turn, for `variable.captured` events. */
  changed: readonly string[];
  /** Values the learner gave that failed validation (not captured). */
  problems: readonly SlotProblem[];
  /** The passage the reply quotes, if it answered from the knowledge. */
  citation: Citation | null;
  /** True when the learner asked something the knowledge has nothing on. */
  noAnswer: boolean;
  /** True once every required variable is captured and nothing is left to ask. */
  done: boolean;
};

/** One conversation turn. Implementations never throw on learner input. */
export type ChatEngine = {
  reply(input: EngineInput): Promise<EngineReply>;
};
