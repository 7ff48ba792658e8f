// Chat benchmark: `npm run bench:chat [-- --engines pglite,postgres --chats 50 --turns 6]`.
//
// For each engine (PGlite in a temporary data folder; PostgreSQL at
// BENCH_DATABASE_URL, or a throw-away cluster started here) it builds the
// real app, listens on a free port, signs up, creates an agent with a
// handbook of knowledge and four variables, and then runs `--chats`
// conversations at once over HTTP, as learners' browsers would: each opens
// with a value, asks the knowledge, gives the other values in words, and
// every other learner reads replies as a stream (Server-Sent Events). It
// prints the reply time (p50/p95/max, request to last byte), the time to the
// first streamed piece, errors (anything but a 200 and a well-formed reply),
// replies per second and whether every value landed on its learner. The
// per-visitor message limit is raised for the run: all learners share one
// address here. Before that, 10 conversations one at a time give the reply
// time without queueing. Each engine runs twice: with the built-in chat
// engine, and with the LLM engine against a local OpenAI-compatible stub
// (`--no-llm` skips it). Results: README.md.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { SAFETY_HANDBOOK } from '../apps/server/src/modules/chatbots/engine/knowledge-cases';
import { startLlmStub, type LlmStub } from '../apps/server/src/test/llm-stub';
import { percentile, pendingCleanups, positiveInteger, postgresEngine, type Engine } from './lib/api-bench';

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    chats: { type: 'string', default: '50' },
    llm: { type: 'boolean', default: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write('usage: npm run bench:chat -- [--engines pglite,postgres] [--chats 50] [--no-llm]\n');
  process.exit(0);
}
const chats = positiveInteger('chats', args.chats);
const wanted = new Set(args.engines.split(',').map((name) => name.trim().toLowerCase()));

/** One learner's conversation: what they type, and what the agent should have captured at the end. */
const SCRIPT = [
  '12',
  'How often are fire extinguishers inspected?',
  'I work at the Lyon site',
  'Where do we meet after an evacuation?',
  'my start date was 3 March 2025',
  'yes, I have done the first aid course',
] as const;
const EXPECTED = { team_size: 12, site: 'Lyon', start_date: '2025-03-03', first_aider: true };

type TurnResult = { ms: number; firstPieceMs: number | null; ok: boolean; error?: string };

async function turn(
  base: string,
  chatbotId: string,
  body: Record<string, unknown>,
  streamed: boolean,
): Promise<TurnResult & { sessionId?: string; captured?: Record<string, unknown> }> {
  const began = performance.now();
  try {
    const response = await fetch(`${base}/api/chat/${chatbotId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(streamed ? { accept: 'text/event-stream' } : {}) },
      body: JSON.stringify(body),
    });
    if (!streamed) {
      const json = (await response.json()) as { sessionId?: string; captured?: Record<string, unknown> };
      const ms = performance.now() - began;
      if (response.status !== 200 || !json.sessionId) {
        return { ms, firstPieceMs: null, ok: false, error: `${response.status} ${JSON.stringify(json)}` };
      }
      return { ms, firstPieceMs: null, ok: true, sessionId: json.sessionId, captured: json.captured ?? {} };
    }
    if (response.status !== 200 || !response.body) {
      return { ms: performance.now() - began, firstPieceMs: null, ok: false, error: String(response.status) };
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstPieceMs: number | null = null;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      firstPieceMs ??= performance.now() - began;
      text += decoder.decode(value as Uint8Array, { stream: true });
    }
    const ms = performance.now() - began;
    const last = text.trim().split('\n\n').at(-1) ?? '';
    if (!last.startsWith('event: done')) return { ms, firstPieceMs, ok: false, error: last.slice(0, 200) };
    const json = JSON.parse(last.slice(last.indexOf('data: ') + 6)) as {
      sessionId: string;
      captured: Record<string, unknown>;
    };
    return { ms, firstPieceMs, ok: true, sessionId: json.sessionId, captured: json.captured };
  } catch (error) {
    return { ms: performance.now() - began, firstPieceMs: null, ok: false, error: String(error) };
  }
}

async function runEngine(engine: Engine, stub: LlmStub | null): Promise<void> {
  process.stdout.write(`\n${engine.name}, ${stub ? 'LLM engine (local stub model)' : 'built-in engine'}\n`);
  const { connection, cleanup } = await engine.open();
  pendingCleanups.add(cleanup);
  const config = {
    ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent-web-dist' }),
    signupLimitPerHour: 0,
    ...(stub ? { llm: stub.config } : {}),
  };
  await runMigrations(connection);
  const app = await buildApp({
    config,
    database: connection,
    logger: false,
    chat: { limits: { perMinute: 1_000_000, perHour: 1_000_000 } },
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const signup = await app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        name: 'Bench Owner',
        email: `chat-bench-${Date.now()}@example.com`,
        password: 'correct horse battery',
        organizationName: `Chat Bench ${Date.now()}`,
      },
    });
    const { token } = signup.json<{ token: string }>();
    // Learners by the thousand, past Free's cap: Business, through the local billing provider.
    const upgraded = await app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: { authorization: `Bearer ${token}` },
      payload: { plan: 'business', interval: 'month' },
    });
    if (upgraded.statusCode !== 200) throw new Error(`plan not changed: ${upgraded.body}`);
    const created = await app.inject({
      method: 'POST',
      url: '/api/chatbots',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        name: 'Safety coach',
        documents: [{ title: SAFETY_HANDBOOK.title, format: 'markdown', text: SAFETY_HANDBOOK.text }],
        variables: [
          { name: 'team_size', type: 'number', validation: { min: 1, max: 500 } },
          { name: 'site', type: 'choice', options: ['Paris', 'Lyon', 'Berlin'] },
          { name: 'start_date', type: 'date' },
          { name: 'first_aider', type: 'boolean', question: 'Have you done the first aid course?' },
        ],
      },
    });
    if (created.statusCode !== 201) throw new Error(`agent not created: ${created.body}`);
    const chatbotId = created.json<{ id: string }>().id;

    // One learner at a time first: the reply time without queueing.
    const alone: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      let sessionId: string | undefined;
      for (const message of SCRIPT) {
        const result = await turn(
          base,
          chatbotId,
          { message, learner: { email: `alone-${index}@example.com` }, ...(sessionId ? { sessionId } : {}) },
          false,
        );
        if (!result.ok) throw new Error(`a reply failed: ${result.error}`);
        sessionId = result.sessionId;
        alone.push(result.ms);
      }
    }
    alone.sort((a, b) => a - b);

    const results: TurnResult[] = [];
    const finals: Record<string, unknown>[] = [];
    const began = performance.now();
    await Promise.all(
      Array.from({ length: chats }, async (_, index) => {
        const email = `learner-${index}@example.com`;
        const streamed = index % 2 === 1;
        let sessionId: string | undefined;
        let captured: Record<string, unknown> = {};
        for (const message of SCRIPT) {
          const result = await turn(
            base,
            chatbotId,
            { message, learner: { email }, ...(sessionId ? { sessionId } : {}) },
            streamed,
          );
          results.push(result);
          if (!result.ok) return;
          sessionId = result.sessionId;
          captured = result.captured ?? captured;
        }
        finals.push(captured);
      }),
    );
    const elapsed = performance.now() - began;
    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    const firsts = results
      .flatMap((r) => (r.firstPieceMs === null ? [] : [r.firstPieceMs]))
      .sort((a, b) => a - b);
    const errors = results.filter((r) => !r.ok);
    const isRight = (captured: Record<string, unknown>) =>
      Object.keys(captured).length === Object.keys(EXPECTED).length &&
      Object.entries(EXPECTED).every(([name, value]) => captured[name] === value);
    const right = finals.filter(isRight).length;
    const wrong = finals.find((captured) => !isRight(captured));
    const stored = await connection.db.execute<{ n: number }>(
      sql`select count(*)::int as n from learner_chatbot_variable_values v
        join chatbot_variables cv on cv.organization_id = v.organization_id and cv.id = v.chatbot_variable_id
        where cv.chatbot_id = ${chatbotId}`,
    );
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    process.stdout.write(
      [
        `  one conversation at a time (10 × ${SCRIPT.length} turns): reply p50 ${ms(percentile(alone, 0.5))}, p95 ${ms(percentile(alone, 0.95))}`,
        `  ${chats} conversations at once, ${SCRIPT.length} turns each: ${results.length} replies in ${(elapsed / 1000).toFixed(1)} s (${((results.length / elapsed) * 1000).toFixed(0)} replies/s)`,
        `  reply (request to last byte): p50 ${ms(percentile(times, 0.5))}, p95 ${ms(percentile(times, 0.95))}, max ${ms(times.at(-1) ?? 0)}`,
        `  first streamed piece: p50 ${ms(percentile(firsts, 0.5))}, p95 ${ms(percentile(firsts, 0.95))}`,
        `  errors: ${errors.length}${errors[0] ? ` (first: ${errors[0].error})` : ''}`,
        `  conversations with every value right: ${right}/${chats}; values stored: ${stored.rows[0]?.n ?? 0}${wrong ? ` (one wrong: ${JSON.stringify(wrong)})` : ''}`,
        `  load average (1 min): ${loadavg()[0]?.toFixed(2)}`,
        '',
      ].join('\n'),
    );
    // The stub model answers with words and captures nothing: only the built-in run checks values.
    if (errors.length > 0 || (!stub && right !== chats)) process.exitCode = 1;
  } finally {
    await app.close();
    pendingCleanups.delete(cleanup);
    await cleanup();
  }
}

const engines: Engine[] = [];
const pgliteDir = mkdtempSync(join(tmpdir(), 'courselens-chat-bench-'));
if (wanted.has('pglite')) {
  engines.push({
    name: 'PGlite',
    open: async () => {
      const connection = await createDatabase({ kind: 'pglite', dataDir: pgliteDir });
      return { connection, cleanup: () => connection.close() };
    },
  });
}
const postgres = wanted.has('postgres') ? postgresEngine() : undefined;
if (postgres) engines.push(postgres);
// The stub streams its answer word by word, as a model does; it stands for
// the model's own speed, so the figures are the product's overhead around it.
const stub = args.llm ? await startLlmStub() : null;
stub?.reply(() => 'Thank you, that helps. The passage on evacuation says to gather in the north car park.');
try {
  for (const engine of engines) {
    await runEngine(engine, null);
    if (stub) await runEngine(engine, stub);
  }
} finally {
  await stub?.close();
  rmSync(pgliteDir, { recursive: true, force: true });
}
