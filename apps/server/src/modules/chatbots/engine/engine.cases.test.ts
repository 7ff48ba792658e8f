import { describe, expect, it } from 'vitest';
import { builtinReply } from './builtin-engine';
import { CASE_AGENTS, CHAT_CASES, CHAT_CASES_NOW } from './chat-cases';
import { buildKnowledgeIndex } from './knowledge-index';
import { KNOWLEDGE_CASES, KNOWLEDGE_DOCUMENTS } from './knowledge-cases';
import { INITIAL_CHAT_STATE, type ChatState } from './types';

// Runs both test sets through the built-in engine and prints the share right,
// so a change to the parser or the retrieval shows what it gained or lost.
// Targets: at least 95 % of the expected values (and rejections) right, at
// least 85 % of the questions answered from the right passage (or, for the
// questions the knowledge cannot answer, with a plain "no answer").

const SLOT_TARGET = 0.95;
const PASSAGE_TARGET = 0.85;

function percent(right: number, total: number): string {
  return `${right}/${total} right (${((100 * right) / total).toFixed(1)} %)`;
}

describe('the built-in engine test sets', () => {
  it('captures at least 95 % of the expected values in the scripted conversations', () => {
    let right = 0;
    let total = 0;
    const misses: string[] = [];
    for (const chat of CHAT_CASES) {
      const agent = CASE_AGENTS[chat.agent];
      const index = buildKnowledgeIndex(agent.knowledge);
      let state: ChatState = builtinReply(agent, index, {
        message: '',
        state: INITIAL_CHAT_STATE,
        now: CHAT_CASES_NOW,
      }).state;
      chat.turns.forEach((turn, number) => {
        const reply = builtinReply(agent, index, { message: turn.message, state, now: CHAT_CASES_NOW });
        state = reply.state;
        for (const [name, expected] of Object.entries(turn.expect ?? {})) {
          total += 1;
          const got = state.captured[name] ?? null;
          if (got === expected) right += 1;
          else
            misses.push(
              `${chat.name}, turn ${number + 1} “${turn.message}”: ${name} = ${String(got)}, expected ${String(expected)}`,
            );
        }
        if (turn.rejects) {
          total += 1;
          if (reply.problems.some((problem) => problem.variable === turn.rejects)) right += 1;
          else
            misses.push(
              `${chat.name}, turn ${number + 1} “${turn.message}”: expected ${turn.rejects} to be asked again`,
            );
        }
      });
    }
    if (misses.length > 0) console.log(`chat engine slots: misses\n  ${misses.join('\n  ')}`);
    console.log(`chat engine slots: ${percent(right, total)} over ${CHAT_CASES.length} conversations`);
    expect(CHAT_CASES.length).toBeGreaterThanOrEqual(30);
    expect(right / total).toBeGreaterThanOrEqual(SLOT_TARGET);
  });

  it('cites the right passage for at least 85 % of the knowledge questions', () => {
    const index = buildKnowledgeIndex(KNOWLEDGE_DOCUMENTS);
    const agent = { variables: [], knowledge: KNOWLEDGE_DOCUMENTS };
    let right = 0;
    const misses: string[] = [];
    for (const question of KNOWLEDGE_CASES) {
      const reply = builtinReply(agent, index, {
        message: question.question,
        state: { ...INITIAL_CHAT_STATE, turns: 1 },
        now: CHAT_CASES_NOW,
      });
      const got = reply.citation?.title ?? null;
      const isRight = question.expected === null ? reply.noAnswer && got === null : got === question.expected;
      if (isRight) right += 1;
      else
        misses.push(
          `“${question.question}”: cited ${got ?? 'nothing'}, expected ${question.expected ?? 'no answer'}`,
        );
    }
    if (misses.length > 0) console.log(`chat engine knowledge: misses\n  ${misses.join('\n  ')}`);
    console.log(`chat engine knowledge: ${percent(right, KNOWLEDGE_CASES.length)}`);
    expect(KNOWLEDGE_CASES.filter((question) => question.expected !== null).length).toBeGreaterThanOrEqual(
      30,
    );
    expect(right / KNOWLEDGE_CASES.length).toBeGreaterThanOrEqual(PASSAGE_TARGET);
  });
});
