// Built-in chat engine benchmark: `npx tsx bench/chat-engine-bench.ts [-- --replies 1000]`
// from the repository root.
//
// Builds the knowledge index of the three knowledge test-set documents
// (safety handbook, new-starter FAQ, data protection primer), then times
// `--replies` built-in replies in this process, cycling through the
// knowledge test-set questions and the scripted conversations' turns (so
// slot filling, chrono-node and retrieval all run), and prints p50/p95/max in
// milliseconds. The target for a reply is p95 ≤ 150 ms.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { builtinReply } from '../apps/server/src/modules/chatbots/engine/builtin-engine';
import {
  CASE_AGENTS,
  CHAT_CASES,
  CHAT_CASES_NOW,
} from '../apps/server/src/modules/chatbots/engine/chat-cases';
import { buildKnowledgeIndex } from '../apps/server/src/modules/chatbots/engine/knowledge-index';
import {
  KNOWLEDGE_CASES,
  KNOWLEDGE_DOCUMENTS,
} from '../apps/server/src/modules/chatbots/engine/knowledge-cases';
import {
  INITIAL_CHAT_STATE,
  type AgentConfig,
  type ChatState,
} from '../apps/server/src/modules/chatbots/engine/types';

const { values: args } = parseArgs({
  options: { replies: { type: 'string', default: '1000' } },
});
const replies = Math.max(1, Number.parseInt(args.replies, 10) || 1000);

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

// One agent with every variable of the test set and all three documents: the largest case.
const agent: AgentConfig = {
  variables: Object.values(CASE_AGENTS).flatMap((config) => config.variables),
  knowledge: KNOWLEDGE_DOCUMENTS,
};
const buildStart = performance.now();
const index = buildKnowledgeIndex(agent.knowledge);
const buildMs = performance.now() - buildStart;

type Step = { message: string; state: ChatState };
const steps: Step[] = [];
for (const question of KNOWLEDGE_CASES) {
  steps.push({ message: question.question, state: { ...INITIAL_CHAT_STATE, turns: 1 } });
}
// Conversation turns with the state each would have, so "8" goes to the asked variable.
for (const chat of CHAT_CASES) {
  const config = CASE_AGENTS[chat.agent];
  const chatIndex = buildKnowledgeIndex(config.knowledge);
  let state = builtinReply(config, chatIndex, {
    message: '',
    state: INITIAL_CHAT_STATE,
    now: CHAT_CASES_NOW,
  }).state;
  for (const turn of chat.turns) {
    steps.push({ message: turn.message, state });
    state = builtinReply(config, chatIndex, { message: turn.message, state, now: CHAT_CASES_NOW }).state;
  }
}

function timeReplies(config: AgentConfig, configIndex: typeof index): number[] {
  // Warm-up: the first calls compile regular expressions and load chrono's parsers.
  for (const step of steps.slice(0, 50)) builtinReply(config, configIndex, { ...step, now: CHAT_CASES_NOW });
  const times: number[] = [];
  for (let run = 0; run < replies; run += 1) {
    const step = steps[run % steps.length];
    if (!step) continue;
    const start = performance.now();
    builtinReply(config, configIndex, { ...step, now: CHAT_CASES_NOW });
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const format = (ms: number) => ms.toFixed(2);
function report(label: string, times: readonly number[]) {
  console.log(
    `${label}: ${times.length} replies (${steps.length} distinct messages), p50 ${format(percentile(times, 0.5))} ms, ` +
      `p95 ${format(percentile(times, 0.95))} ms, max ${format(times.at(-1) ?? 0)} ms (target p95 ≤ 150 ms)`,
  );
}

console.log(
  `test-set knowledge: ${index.passages.length} passages from ${agent.knowledge.length} documents, indexed in ${format(buildMs)} ms`,
);
report('built-in replies, test-set knowledge', timeReplies(agent, index));

// The largest knowledge an agent may have: the documents repeated up to the character limit.
const large: AgentConfig = {
  ...agent,
  knowledge: Array.from({ length: 40 }, (_, copy) =>
    KNOWLEDGE_DOCUMENTS.map((document) => ({ ...document, title: `${document.title} (${copy + 1})` })),
  ).flat(),
};
const largeStart = performance.now();
const largeIndex = buildKnowledgeIndex(large.knowledge);
const largeBuildMs = performance.now() - largeStart;
const largeChars = largeIndex.passages.reduce((sum, passage) => sum + passage.text.length, 0);
console.log(
  `largest knowledge: ${largeIndex.passages.length} passages (${largeChars} characters of text), indexed in ${format(largeBuildMs)} ms`,
);
report('built-in replies, largest knowledge', timeReplies(large, largeIndex));
