// Ingestion benchmark: `npm run bench:ingest [-- --learners 100000]` from the repository root.
//
// For each engine (PGlite in a temporary data folder; PostgreSQL at
// BENCH_DATABASE_URL, or a throw-away cluster started here) it migrates, seeds
// the large dataset (seedDemo, as bench:seed does; reused on a database at
// BENCH_DATABASE_URL, as the other benchmarks do), starts the real server
// (src/main.ts) as a child process on that data, and lets autocannon post
// batches of 100 events (course starts, variable values, answers and
// completions of the seeded learners and courses) to POST /api/v1/events. It
// prints events/s and the p50/p95 latency of a batch, beside the raw rate of
// inserting the same stored rows (idempotency keys, log rows, runs, values,
// answers) straight into the database in the same run. On PostgreSQL it also
// measures the lag from an acknowledgement to the rollups showing the event
// (rollups are folded by the workers there; PGlite counts them in the writing
// transaction). In the same run, against the same server and data, it then
// posts batches of 100 statements as Articulate Storyline sends them to the
// LRS (POST /xapi/statements) and prints statements/s beside the event API's
// events/s (`--no-xapi` skips that part). See README.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDatabase, type DatabaseConnection } from '../apps/server/src/db/client';
import { insertApiKey } from '../apps/server/src/db/factories/organizations';
import { runMigrations } from '../apps/server/src/db/migrate';
import { foldAllRollups } from '../apps/server/src/jobs/rollup-folder';
import { hashApiKey } from '../apps/server/src/modules/api-keys/api-keys.service';
import { benchOrganization, pendingCleanups } from './lib/api-bench';
import { findPostgresBin, startPostgresCluster } from './lib/postgres-cluster';
import { openRawSession, sqlLiteral } from './lib/raw-sql';

// autocannon ships no types: the little of its API used here.
type AutocannonRequest = {
  method: string;
  path: string;
  setupRequest: (request: Record<string, unknown>) => Record<string, unknown>;
};
type AutocannonResult = { '2xx': number; non2xx: number; errors: number; timeouts: number; duration: number };
type AutocannonInstance = Promise<AutocannonResult> & {
  on: (
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, ms: number) => void,
  ) => void;
};
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests: AutocannonRequest[];
  timeout: number;
}) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const EVENTS_PER_BATCH = 100;
const LEARNERS_PER_BATCH = 10;
const serverDir = fileURLToPath(new URL('../apps/server', import.meta.url));

const { values: args } = parseArgs({
  options: {
    learners: { type: 'string', default: process.env.BENCH_LEARNERS ?? '100000' },
    seed: { type: 'string', default: '42' },
    engines: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '8' },
    'cpu-prof': { type: 'string' },
    'no-xapi': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(
    'usage: npm run bench:ingest -- [--learners 100000] [--seed 42] [--engines pglite,postgres]\n' +
      '                              [--duration 20] [--connections 8] [--cpu-prof DIR] [--no-xapi]\n',
  );
  process.exit(0);
}

function positiveInteger(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    process.stderr.write(`--${name} must be a positive whole number (got "${raw}")\n`);
    process.exit(2);
  }
  return Number(raw);
}

const learnerCount = positiveInteger('learners', args.learners);
const seed = positiveInteger('seed', args.seed);
const durationSeconds = positiveInteger('duration', args.duration);
const connections = positiveInteger('connections', args.connections);
/** A folder for V8 CPU profiles of the server (`--cpu-prof DIR`), to see where its time goes. */
const cpuProfileDir = args['cpu-prof'] ? resolvePath(args['cpu-prof']) : undefined;
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));
const now = new Date();
now.setUTCMinutes(0, 0, 0);
/** A kept database's dataset of this benchmark, apart from the one the report and analytics benchmarks read. */
const INGEST_DATASET = 'Ingest Bench Org';
/** Keeps this run's event and run ids apart from an earlier run's on a reused database. */
const runTag = Date.now().toString(36);

type Storage = {
  /** Environment for the server process: DATA_DIR or DATABASE_URL. */
  env: Record<string, string>;
  open: () => Promise<DatabaseConnection>;
  cleanup: () => Promise<void>;
  /** A database that outlives the run (BENCH_DATABASE_URL): its dataset is reused. */
  persistent?: boolean;
};
type Engine = { name: string; key: string; prepare: () => Promise<Storage> };

const engines: Engine[] = [];
if (wanted.has('pglite')) {
  engines.push({
    name: 'PGlite',
    key: 'pglite',
    prepare: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'courselens-ingest-pglite-'));
      return {
        env: { DATA_DIR: dataDir },
        open: () => createDatabase({ kind: 'pglite', dataDir }),
        cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  });
}
if (wanted.has('postgres')) {
  const url = process.env.BENCH_DATABASE_URL;
  const bin = url ? undefined : findPostgresBin();
  if (url) {
    engines.push({
      name: 'PostgreSQL',
      key: 'postgres',
      prepare: async () => ({
        env: { DATABASE_URL: url },
        open: () => createDatabase({ kind: 'postgres', url }),
        cleanup: async () => undefined,
        persistent: true,
      }),
    });
  } else if (bin) {
    engines.push({
      name: 'PostgreSQL',
      key: 'postgres',
      prepare: async () => {
        const cluster = await startPostgresCluster(bin);
        process.stdout.write(`  throw-away PostgreSQL ${cluster.version} cluster at ${cluster.url}\n`);
        return {
          env: { DATABASE_URL: cluster.url },
          open: () => createDatabase({ kind: 'postgres', url: cluster.url }),
          cleanup: cluster.stop,
        };
      },
    });
  } else {
    process.stdout.write(
      'PostgreSQL skipped: set BENCH_DATABASE_URL, or install PostgreSQL server binaries (apt-get install postgresql).\n',
    );
  }
}

type Catalog = {
  emails: string[];
  courses: {
    externalId: string;
    variables: { name: string; dataType: string }[];
    questions: {
      interactionId: string;
      slideNumber: number | null;
      questionNumber: number | null;
      text: string | null;
      correctAnswer: string | null;
    }[];
  }[];
};

/** The seeded organization's learners, courses, variables and questions the events talk about. */
async function loadCatalog(connection: DatabaseConnection, organizationId: string): Promise<Catalog> {
  const emails = await connection.db.execute<{ email: string }>(
    sql`select email from learners where organization_id = ${organizationId} order by email`,
  );
  const courses = await connection.db.execute<{ id: string; external_course_id: string }>(
    sql`select id, external_course_id from courses
        where organization_id = ${organizationId} and not is_deleted and external_course_id is not null
        order by external_course_id`,
  );
  const variables = await connection.db.execute<{ course_id: string; name: string; data_type: string }>(
    sql`select course_id, name, data_type from variables where organization_id = ${organizationId} order by name`,
  );
  const questions = await connection.db.execute<{
    course_id: string;
    interaction_id: string;
    slide_number: number | null;
    question_number: number | null;
    question_text: string | null;
    correct_answer: string | null;
  }>(sql`select course_id, interaction_id, slide_number, question_number, question_text, correct_answer
         from questions where organization_id = ${organizationId} order by interaction_id`);
  return {
    emails: emails.rows.map((row) => row.email),
    courses: courses.rows
      .map((course) => ({
        externalId: course.external_course_id,
        variables: variables.rows
          .filter((v) => v.course_id === course.id)
          .map((v) => ({ name: v.name, dataType: v.data_type })),
        questions: questions.rows
          .filter((q) => q.course_id === course.id)
          .map((q) => ({
            interactionId: q.interaction_id,
            slideNumber: q.slide_number,
            questionNumber: q.question_number,
            text: q.question_text,
            correctAnswer: q.correct_answer,
          })),
      }))
      .filter((course) => course.variables.length > 0 && course.questions.length > 0),
  };
}

/** A small deterministic generator (mulberry32), so runs are comparable. */
function random(seedValue: number): () => number {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sampleValue(dataType: string, next: () => number): string | number | boolean {
  switch (dataType) {
    case 'number':
      return Math.round(next() * 1000) / 10;
    case 'boolean':
      return next() < 0.7;
    case 'date':
      return new Date(now.getTime() - Math.floor(next() * 30 * 86_400_000)).toISOString();
    default:
      return `answer ${Math.floor(next() * 50)}`;
  }
}

/**
 * Batch n: 10 learners each start a run of one course, set 6 of its
 * variables, answer 2 of its questions and complete it (100 events).
 */
function makeBatch(catalog: Catalog, engineKey: string, n: number): unknown[] {
  const next = random(seed * 1_000_003 + n);
  const events: unknown[] = [];
  const at = (offsetSeconds: number) =>
    new Date(now.getTime() + n * 1000 + offsetSeconds * 1000).toISOString();
  for (let l = 0; l < LEARNERS_PER_BATCH; l += 1) {
    const email = catalog.emails[Math.floor(next() * catalog.emails.length)] as string;
    const course = catalog.courses[Math.floor(next() * catalog.courses.length)] as Catalog['courses'][number];
    const base = {
      course: { externalCourseId: course.externalId },
      learner: { email },
      run: `bench-r-${runTag}-${n}-${l}`,
    };
    const id = (k: number) => `bench-${engineKey}-${runTag}-${n}-${l}-${k}`;
    events.push({ ...base, id: id(0), type: 'course.started', timestamp: at(0) });
    for (let k = 1; k <= 6; k += 1) {
      const variable = course.variables[Math.floor(next() * course.variables.length)] as {
        name: string;
        dataType: string;
      };
      events.push({
        ...base,
        id: id(k),
        type: 'variable.set',
        timestamp: at(k),
        variable: { name: variable.name, value: sampleValue(variable.dataType, next) },
      });
    }
    for (let k = 7; k <= 8; k += 1) {
      const question = course.questions[
        Math.floor(next() * course.questions.length)
      ] as Catalog['courses'][number]['questions'][number];
      const isCorrect = next() < 0.6;
      events.push({
        ...base,
        id: id(k),
        type: 'question.answered',
        timestamp: at(k),
        question: {
          interactionId: question.interactionId,
          slideNumber: question.slideNumber,
          questionNumber: question.questionNumber,
          text: question.text,
          answer: isCorrect ? (question.correctAnswer ?? 'A') : 'Z',
          correct: isCorrect,
          correctAnswer: question.correctAnswer,
          points: isCorrect ? 10 : 0,
        },
      });
    }
    events.push({ ...base, id: id(9), type: 'course.completed', timestamp: at(9) });
  }
  return events;
}

const XAPI_STATEMENTS_PER_BATCH = 100;
const verb = (name: string) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { 'en-US': name } });

/**
 * Batch n of statements as Storyline 360 sends them: 10 learners each
 * attempt a course (a registration of their own), experience 4 slides and a
 * results slide whose result carries a variable, answer 2 choice questions
 * with their interaction definitions, pass or fail, and complete (100
 * statements).
 */
function makeStatements(catalog: Catalog, n: number): unknown[] {
  const next = random(seed * 2_000_003 + n);
  const statements: unknown[] = [];
  const at = (offsetSeconds: number) =>
    new Date(now.getTime() + n * 1000 + offsetSeconds * 1000).toISOString();
  for (let l = 0; l < XAPI_STATEMENTS_PER_BATCH / 10; l += 1) {
    const email = catalog.emails[Math.floor(next() * catalog.emails.length)] as string;
    const course = catalog.courses[Math.floor(next() * catalog.courses.length)] as Catalog['courses'][number];
    const courseId = `https://bench.courselens.invalid/storyline/${course.externalId}`;
    const courseActivity = {
      objectType: 'Activity',
      id: courseId,
      definition: {
        type: 'http://adlnet.gov/expapi/activities/course',
        name: { 'en-US': course.externalId },
        description: { 'en-US': course.externalId },
      },
    };
    const context = { registration: crypto.randomUUID(), contextActivities: { grouping: [courseActivity] } };
    const actor = { objectType: 'Agent', name: email.split('@')[0], mbox: `mailto:${email}` };
    const statement = (k: number, body: Record<string, unknown>) => ({
      id: crypto.randomUUID(),
      actor,
      timestamp: at(k),
      context,
      ...body,
    });
    statements.push(statement(0, { verb: verb('attempted'), object: courseActivity }));
    for (let slide = 1; slide <= 4; slide += 1) {
      statements.push(
        statement(slide, {
          verb: verb('experienced'),
          object: {
            objectType: 'Activity',
            id: `${courseId}/6Xy${slide}/5aB${slide}`,
            definition: {
              type: 'http://adlnet.gov/expapi/activities/module',
              name: { 'en-US': `Slide ${slide}` },
            },
          },
          result: { duration: `PT${Math.floor(next() * 90)}S` },
        }),
      );
    }
    for (let q = 1; q <= 2; q += 1) {
      const correct = next() < 0.6;
      statements.push(
        statement(4 + q, {
          verb: verb('answered'),
          object: {
            objectType: 'Activity',
            id: `${courseId}/6Xy5/q${q}`,
            definition: {
              type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
              description: { 'en-US': `Question ${q} of ${course.externalId}` },
              interactionType: 'choice',
              correctResponsesPattern: ['choice_a'],
              choices: ['a', 'b', 'c', 'd'].map((c) => ({
                id: `choice_${c}`,
                description: { 'en-US': `Option ${c}` },
              })),
            },
          },
          result: {
            response: correct ? 'choice_a' : 'choice_c',
            success: correct,
            score: { raw: correct ? 10 : 0, min: 0, max: 10 },
            duration: 'PT12.5S',
          },
        }),
      );
    }
    const variable = course.variables[Math.floor(next() * course.variables.length)] as {
      name: string;
      dataType: string;
    };
    statements.push(
      statement(7, {
        verb: verb('experienced'),
        object: {
          objectType: 'Activity',
          id: `${courseId}/6Xy5/results`,
          definition: { name: { 'en-US': 'Results' } },
        },
        result: {
          extensions: {
            [`https://bench.courselens.invalid/xapi/variables/${variable.name}`]: sampleValue(
              variable.dataType,
              next,
            ),
          },
        },
      }),
    );
    const score = Math.round(next() * 100);
    statements.push(
      statement(8, {
        verb: verb(score >= 60 ? 'passed' : 'failed'),
        object: courseActivity,
        result: {
          score: { scaled: score / 100, raw: score, min: 0, max: 100 },
          success: score >= 60,
          completion: true,
        },
      }),
    );
    statements.push(
      statement(9, { verb: verb('completed'), object: courseActivity, result: { completion: true } }),
    );
  }
  return statements;
}

/** Posts Storyline batches to the LRS for `durationSeconds`; every answer must be a 200 listing 100 ids. */
function loadXapi(base: string, apiKeyId: string, key: string, catalog: Catalog) {
  return postBatches(base, {
    path: '/xapi/statements',
    headers: {
      authorization: `Basic ${Buffer.from(`${apiKeyId}:${key}`).toString('base64')}`,
      'content-type': 'application/json',
      'x-experience-api-version': '1.0.3',
    },
    body: (n) => JSON.stringify(makeStatements(catalog, n)),
  });
}

/**
 * Posts request bodies `body(1)`, `body(2)`, … to `path` with autocannon for
 * `durationSeconds` over the configured connections; the latencies counted
 * are those of the 200 answers.
 */
async function postBatches(
  base: string,
  load: { path: string; headers: Record<string, string>; body: (n: number) => string },
) {
  let n = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url: base,
    connections,
    duration: durationSeconds,
    timeout: 60,
    headers: load.headers,
    requests: [
      {
        method: 'POST',
        path: load.path,
        setupRequest: (request) => {
          n += 1;
          return { ...request, body: load.body(n) };
        },
      },
    ],
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status === 200) latencies.push(ms);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return { result, batchesSent: n, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

type Server = { child: ChildProcess; exited: Promise<number | null>; output: () => string };

function startServer(env: Record<string, string>, port: number): Server {
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(server: Server, base: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not become healthy:\n${server.output()}`);
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}

type Row = {
  engine: string;
  what: string;
  events: number;
  seconds: number;
  p50?: number;
  p95?: number;
};

/** Posts batches for `durationSeconds` with autocannon; every response must be a 200 with 100 accepted. */
function loadTest(base: string, key: string, catalog: Catalog, engine: Engine) {
  return postBatches(base, {
    path: '/api/v1/events',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: (n) => JSON.stringify({ events: makeBatch(catalog, engine.key, n) }),
  });
}

/**
 * Lag from acknowledgement to the rollups: while the load runs, one probe
 * at a time sends a `course.started` of a new learner and polls the
 * course-learners rollup until the learner is counted there.
 */
async function probeLag(
  base: string,
  key: string,
  connection: DatabaseConnection,
  organizationId: string,
  catalog: Catalog,
  isRunning: () => boolean,
): Promise<number[]> {
  const lags: number[] = [];
  const course = catalog.courses[0];
  if (!course) return lags;
  for (let i = 0; isRunning(); i += 1) {
    const email = `lag-probe-${Date.now()}-${i}@bench.invalid`;
    const response = await fetch(`${base}/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          {
            id: `lag-${email}`,
            type: 'course.started',
            course: { externalCourseId: course.externalId },
            learner: { email },
          },
        ],
      }),
    });
    if (!response.ok) throw new Error(`lag probe answered ${response.status}: ${await response.text()}`);
    const acknowledged = performance.now();
    for (;;) {
      // By the rollup's key: the probe polls every 20 ms under load, and a
      // scan of every learner's courses would take the cores it measures.
      const found = await connection.db.execute<{ counted: boolean }>(sql`
        select exists (
          select 1 from course_learners cl
          join courses c on c.organization_id = cl.organization_id and c.id = cl.course_id
          join learners l on l.organization_id = cl.organization_id and l.id = cl.learner_id
          where c.organization_id = ${organizationId} and c.external_course_id = ${course.externalId} and not c.is_deleted
            and l.email = ${email}
        ) as counted`);
      if (found.rows[0]?.counted) break;
      if (performance.now() - acknowledged > 60_000)
        throw new Error('a probe event was not counted within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    lags.push(performance.now() - acknowledged);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return lags.sort((a, b) => a - b);
}

/**
 * The same rows the API just wrote (events, runs, values, answers and the
 * learners' last activity), copied with new ids and sent straight to the
 * database as multi-row INSERT text: one transaction per batch of 100
 * events, as the API does, on one connection. Only database time counts.
 */
async function rawInsertSameRows(
  connection: DatabaseConnection,
  organizationId: string,
  apiKeyId: string,
  sessionCount = 1,
) {
  // Each run writes copies under ids of its own, so runs can follow one another.
  const prefix = `raw${sessionCount}-`;
  const org = sqlLiteral(organizationId);
  const fetchRows = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
    (await connection.db.execute<T>(query)).rows;
  const events = await fetchRows<Record<string, unknown>>(
    sql`select event_id, type, course_id, learner_id, run_id, occurred_at, slide_number, question_id, variable_id,
          value::text as value, correct, points
        from learning_events
        where organization_id = ${organizationId} and api_key_id = ${apiKeyId} and event_id like 'bench-%'`,
  );
  const runs = await fetchRows<Record<string, unknown>>(
    sql`select id, course_id, learner_id, client_run_id, started_at, completed_at from course_runs
        where organization_id = ${organizationId} and client_run_id like ${`bench-r-${runTag}-%`}`,
  );
  const values = await fetchRows<Record<string, unknown>>(
    sql`select v.variable_id, v.learner_id, v.course_id, v.course_run_id, v.value, v.value_number, v.value_boolean,
          v.value_date, v.recorded_at
        from learner_variable_values v join course_runs r on r.organization_id = v.organization_id and r.id = v.course_run_id
        where v.organization_id = ${organizationId} and r.client_run_id like ${`bench-r-${runTag}-%`}`,
  );
  const answers = await fetchRows<Record<string, unknown>>(
    sql`select a.question_id, a.learner_id, a.course_id, a.course_run_id, a.slide_number, a.question_number,
          a.question_text, a.answer_choice, a.correct, a.correct_answer, a.points_assigned, a.created_at
        from course_run_questions a join course_runs r on r.organization_id = a.organization_id and r.id = a.course_run_id
        where a.organization_id = ${organizationId} and r.client_run_id like ${`bench-r-${runTag}-%`}`,
  );
  // Group by the request (batch) each row came from.
  const batchOfRun = new Map<unknown, string>();
  const groups = new Map<
    string,
    { events: typeof events; runs: typeof runs; values: typeof values; answers: typeof answers }
  >();
  const group = (batch: string) => {
    let found = groups.get(batch);
    if (!found) groups.set(batch, (found = { events: [], runs: [], values: [], answers: [] }));
    return found;
  };
  for (const run of runs) {
    const batch = /^bench-r-[a-z0-9]+-(\d+)-/.exec(String(run.client_run_id))?.[1] ?? '?';
    batchOfRun.set(run.id, batch);
    group(batch).runs.push(run);
  }
  for (const event of events)
    group(/^bench-[a-z]+-[a-z0-9]+-(\d+)-/.exec(String(event.event_id))?.[1] ?? '?').events.push(event);
  for (const value of values) group(batchOfRun.get(value.course_run_id) ?? '?').values.push(value);
  for (const answer of answers) group(batchOfRun.get(answer.course_run_id) ?? '?').answers.push(answer);

  const literal = (value: unknown) =>
    value instanceof Date ? `'${value.toISOString()}'` : sqlLiteral(value);
  const tuples = (rows: Record<string, unknown>[], columns: ((row: Record<string, unknown>) => string)[]) =>
    rows.map((row) => `(${columns.map((column) => column(row)).join(', ')})`).join(',\n');
  const col = (name: string) => (row: Record<string, unknown>) => literal(row[name]);
  const newRun = (row: Record<string, unknown>) => `'${String(row.course_run_id)}'::uuid`;

  // A batch's statements, sent as one round trip in a transaction of its own.
  const statementsOf = (batch: {
    events: typeof events;
    runs: typeof runs;
    values: typeof values;
    answers: typeof answers;
  }) => {
    // New run ids: the copies point at copied runs, like the originals.
    const runIds = new Map(batch.runs.map((run) => [run.id, crypto.randomUUID()]));
    const remap = (row: Record<string, unknown>) => ({
      ...row,
      course_run_id: runIds.get(row.course_run_id),
    });
    const statements = [
      'begin',
      `insert into learning_event_keys (organization_id, event_id, occurred_at) values ${tuples(
        batch.events,
        [() => org, (row) => literal(`${prefix}${String(row.event_id)}`), col('occurred_at')],
      )}`,
      `insert into learning_events (organization_id, occurred_at, event_id, type, source, course_id, learner_id,
           run_id, slide_number, question_id, variable_id, value, correct, points) values ${tuples(
             batch.events,
             [
               () => org,
               col('occurred_at'),
               (row) => literal(`${prefix}${String(row.event_id)}`),
               col('type'),
               () => `'api'`,
               col('course_id'),
               col('learner_id'),
               (row) => (row.run_id ? literal(runIds.get(row.run_id) ?? null) : 'null'),
               col('slide_number'),
               col('question_id'),
               col('variable_id'),
               (row) => `${literal(row.value)}::jsonb`,
               col('correct'),
               col('points'),
             ],
           )}`,
      `insert into course_runs (id, organization_id, course_id, learner_id, client_run_id, started_at, completed_at, created_at) values ${tuples(
        batch.runs,
        [
          (row) => literal(runIds.get(row.id)),
          () => org,
          col('course_id'),
          col('learner_id'),
          (row) => literal(`${prefix}${String(row.client_run_id)}`),
          col('started_at'),
          col('completed_at'),
          col('started_at'),
        ],
      )}`,
      batch.values.length === 0
        ? ''
        : `insert into learner_variable_values (organization_id, variable_id, learner_id, course_id, course_run_id, value, value_number, value_boolean, value_date, recorded_at, created_at) values ${tuples(
            batch.values.map(remap),
            [
              () => org,
              col('variable_id'),
              col('learner_id'),
              col('course_id'),
              newRun,
              col('value'),
              col('value_number'),
              col('value_boolean'),
              col('value_date'),
              col('recorded_at'),
              col('recorded_at'),
            ],
          )}`,
      batch.answers.length === 0
        ? ''
        : `insert into course_run_questions (organization_id, question_id, learner_id, course_id, course_run_id, slide_number, question_number, question_text, answer_choice, correct, correct_answer, points_assigned, created_at) values ${tuples(
            batch.answers.map(remap),
            [
              () => org,
              col('question_id'),
              col('learner_id'),
              col('course_id'),
              newRun,
              col('slide_number'),
              col('question_number'),
              col('question_text'),
              col('answer_choice'),
              col('correct'),
              col('correct_answer'),
              col('points_assigned'),
              col('created_at'),
            ],
          )}`,
      `update learners l set last_activity_at = greatest(l.last_activity_at, v.at::timestamptz)
         from (values ${tuples(batch.runs, [col('learner_id'), col('completed_at')])}) as v(id, at)
         where l.organization_id = ${org} and l.id = v.id::uuid and v.at is not null`,
      'commit',
    ].filter(Boolean);
    return statements.join(';\n');
  };
  const texts = [...groups.values()].map((batch) => ({
    text: statementsOf(batch),
    events: batch.events.length,
  }));

  // Sessions take the next batch as they finish one, as the API's connections
  // do; only the wall time from the first statement to the last commit counts.
  const sessions = await Promise.all(Array.from({ length: sessionCount }, () => openRawSession(connection)));
  let next = 0;
  let eventCount = 0;
  let deadlocks = 0;
  const began = performance.now();
  try {
    await Promise.all(
      sessions.map(async (session) => {
        while (next < texts.length) {
          const batch = texts[next++] as (typeof texts)[number];
          // Two sessions writing rows of one learner in different orders can deadlock; PostgreSQL then
          // rolls one back, and that batch is simply written again (the count is printed).
          for (let attempt = 1; ; attempt++) {
            try {
              await session.exec(batch.text);
              break;
            } catch (error) {
              await session.exec('rollback').catch(() => 0);
              if (attempt >= 3 || (error as { code?: unknown }).code !== '40P01') throw error;
              deadlocks++;
            }
          }
          eventCount += batch.events;
        }
      }),
    );
  } finally {
    for (const session of sessions) session.release();
  }
  const ms = performance.now() - began;
  if (deadlocks > 0) {
    process.stdout.write(
      `  raw insert over ${sessionCount} sessions: ${deadlocks} batch(es) written again after a deadlock\n`,
    );
  }
  return { events: eventCount, ms, batches: groups.size };
}

async function benchEngine(engine: Engine): Promise<Row[]> {
  process.stdout.write(`\n${engine.name}: ${learnerCount.toLocaleString('en-US')} learners (seed ${seed})\n`);
  const storage = await engine.prepare();
  pendingCleanups.add(storage.cleanup);
  let server: Server | undefined;
  try {
    // Seed, create the API key and read the catalog, then hand the data to the server.
    let connection = await storage.open();
    await runMigrations(connection);
    // A database of one's own (BENCH_DATABASE_URL) keeps its dataset between
    // runs, as the other benchmarks do; a throw-away one is seeded each time.
    const organizationId = await benchOrganization(connection, learnerCount, {
      label: INGEST_DATASET,
      seed,
      now,
    });
    const key = `cl_bench${crypto.randomUUID().replaceAll('-', '')}`;
    const apiKey = await insertApiKey(connection.db, {
      organizationId,
      name: 'Ingest bench',
      prefix: key.slice(0, 11),
      keyHash: hashApiKey(key),
      scope: 'ingest',
    });
    if (storage.persistent && connection.kind === 'postgres') {
      // An earlier run's raw phases leave their rows queued for the folder
      // (its server was gone by then); folded during the load, they would
      // take the cores and the lag this run measures.
      const folded = await foldAllRollups(connection.db);
      if (folded > 0)
        process.stdout.write(`  folded ${folded.toLocaleString('en-US')} rows an earlier run left queued\n`);
    }
    const catalog = await loadCatalog(connection, organizationId);
    await connection.db.execute(sql`analyze`);
    if (connection.kind === 'pglite') await connection.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startServer(storage.env, port);
    await waitForHealth(server, base);
    process.stdout.write(
      `  autocannon: ${connections} connections, ${durationSeconds} s, ${EVENTS_PER_BATCH} events per request\n`,
    );
    let isLoading = true;
    const lagProbe =
      connection.kind === 'postgres'
        ? probeLag(base, key, connection, organizationId, catalog, () => isLoading)
        : Promise.resolve(null);
    const load = await loadTest(base, key, catalog, engine).finally(() => {
      isLoading = false;
    });
    const lags = await lagProbe;
    if (lags) {
      process.stdout.write(
        `  lag from acknowledgement to rollups (${lags.length} probes under load): ` +
          `p50 ${percentile(lags, 50).toFixed(0)} ms, p95 ${percentile(lags, 95).toFixed(0)} ms, ` +
          `max ${(lags.at(-1) ?? 0).toFixed(0)} ms\n`,
      );
    } else {
      process.stdout.write(
        '  lag from acknowledgement to rollups: 0 (PGlite counts them in the writing transaction)\n',
      );
    }
    let xapi: Awaited<ReturnType<typeof loadXapi>> | null = null;
    if (!args['no-xapi']) {
      process.stdout.write(
        `  autocannon: ${connections} connections, ${durationSeconds} s, ${XAPI_STATEMENTS_PER_BATCH} Storyline statements per request to /xapi/statements\n`,
      );
      xapi = await loadXapi(base, apiKey.id, key, catalog);
    }
    server.child.kill('SIGTERM');
    await server.exited;
    server = undefined;

    if (connection.kind === 'pglite') connection = await storage.open();
    try {
      const stored = await connection.db.execute<{ n: number }>(
        sql`select count(*)::int as n from learning_events where api_key_id = ${apiKey.id}`,
      );
      const storedEvents = stored.rows[0]?.n ?? 0;
      const acknowledged = load.result['2xx'] * EVENTS_PER_BATCH;
      process.stdout.write(
        `  ${load.result['2xx']} batches answered 200 (${load.result.non2xx} other, ${load.result.errors} errors); ` +
          `${storedEvents.toLocaleString('en-US')} events stored\n`,
      );
      if (load.result.non2xx > 0 || storedEvents < acknowledged) {
        throw new Error(
          `expected every batch accepted: ${acknowledged} acknowledged, ${storedEvents} stored`,
        );
      }
      if (xapi) {
        const storedStatements = await connection.db.execute<{ n: number; unmapped: number }>(
          sql`select count(*)::int as n, count(unmapped_reason)::int as unmapped
              from xapi_statements where api_key_id = ${apiKey.id}`,
        );
        const acknowledgedStatements = xapi.result['2xx'] * XAPI_STATEMENTS_PER_BATCH;
        const statementRow = storedStatements.rows[0];
        process.stdout.write(
          `  ${xapi.result['2xx']} statement batches answered 200 (${xapi.result.non2xx} other, ${xapi.result.errors} errors); ` +
            `${(statementRow?.n ?? 0).toLocaleString('en-US')} statements stored, ${statementRow?.unmapped ?? 0} without facts\n`,
        );
        if (
          xapi.result.non2xx > 0 ||
          (statementRow?.n ?? 0) < acknowledgedStatements ||
          (statementRow?.unmapped ?? 0) > 0
        ) {
          throw new Error(
            `expected every statement stored and mapped: ${acknowledgedStatements} acknowledged, ${statementRow?.n ?? 0} stored, ${statementRow?.unmapped ?? 0} unmapped`,
          );
        }
      }
      const raw = await rawInsertSameRows(connection, organizationId, apiKey.id);
      // The database's own ceiling on this machine: the same batches over as
      // many connections as the load used (PGlite has one connection).
      const rawParallel =
        connection.kind === 'postgres'
          ? await rawInsertSameRows(connection, organizationId, apiKey.id, connections)
          : null;
      return [
        {
          engine: engine.name,
          what: `API: POST /api/v1/events, ${connections} connections`,
          events: acknowledged,
          seconds: load.result.duration,
          p50: load.p50,
          p95: load.p95,
        },
        ...(xapi
          ? [
              {
                engine: engine.name,
                what: `LRS: POST /xapi/statements (statements), ${connections} connections`,
                events: xapi.result['2xx'] * XAPI_STATEMENTS_PER_BATCH,
                seconds: xapi.result.duration,
                p50: xapi.p50,
                p95: xapi.p95,
              },
            ]
          : []),
        {
          engine: engine.name,
          what: 'raw: same rows as INSERT text, a transaction per 100 events',
          events: raw.events,
          seconds: raw.ms / 1000,
          p50: undefined,
          p95: undefined,
        },
        ...(rawParallel
          ? [
              {
                engine: engine.name,
                what: `raw: the same over ${connections} connections`,
                events: rawParallel.events,
                seconds: rawParallel.ms / 1000,
                p50: undefined,
                p95: undefined,
              },
            ]
          : []),
      ];
    } finally {
      await connection.close();
    }
  } finally {
    if (server) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    pendingCleanups.delete(storage.cleanup);
    await storage.cleanup();
  }
}

function formatRows(rows: readonly Row[]): string {
  const header = ['engine', 'what', 'events', 'seconds', 'events/s', 'p50 ms', 'p95 ms'];
  const lines = rows.map((row) => [
    row.engine,
    row.what,
    row.events.toLocaleString('en-US'),
    row.seconds.toFixed(1),
    Math.round(row.events / row.seconds).toLocaleString('en-US'),
    row.p50 === undefined ? '' : row.p50.toFixed(0),
    row.p95 === undefined ? '' : row.p95.toFixed(0),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join(
    '\n',
  );
}

async function main(): Promise<void> {
  if (engines.length === 0) {
    process.stderr.write('No engine to benchmark (--engines pglite,postgres).\n');
    process.exitCode = 1;
    return;
  }
  const rows: Row[] = [];
  for (const engine of engines) rows.push(...(await benchEngine(engine)));
  process.stdout.write(
    `\nIngestion benchmark, ${learnerCount.toLocaleString('en-US')} learners, batches of ${EVENTS_PER_BATCH} events\n\n`,
  );
  process.stdout.write(`${formatRows(rows)}\n`);
  // The LRS's target: statements/s within 70 % of the event API's events/s in the same run.
  for (const engine of engines) {
    const rate = (prefix: string) => {
      const row = rows.find((r) => r.engine === engine.name && r.what.startsWith(prefix));
      return row ? row.events / row.seconds : null;
    };
    const events = rate('API:');
    const statements = rate('LRS:');
    if (events && statements) {
      process.stdout.write(
        `${engine.name}: xAPI statements/s are ${Math.round((100 * statements) / events)} % of the event API's events/s (target: at least 70 %)\n`,
      );
    }
  }
}

main().catch(async (error: unknown) => {
  process.stderr.write(
    `bench:ingest failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup()));
  process.exitCode = 1;
});
