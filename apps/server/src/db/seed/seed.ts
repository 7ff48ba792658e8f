import { planById } from '@courselens/contracts';
import { eq, getTableName, sql } from 'drizzle-orm';
import { checkpointIfWalGrew, type DatabaseConnection, type Database } from '../client';
import {
  buildAuthUser,
  buildCredentialAccount,
  buildMembership,
  buildOrganization,
  buildUserProfile,
  hashPasswordWithScrypt,
  type PasswordHasher,
} from '../factories/organizations';
import {
  activityEvents,
  authAccounts,
  authUsers,
  broadcasts,
  courseRunQuestions,
  courseRuns,
  courses,
  learnerVariableValues,
  learners,
  learningEventKeys,
  learningEvents,
  organizations,
  questions,
  userOrganizations,
  users,
  variables,
  type NewOrganization,
} from '../schema';
import { BatchInserter, DEFAULT_BATCH_SIZE, type InsertMode, type TableTiming } from './batch-inserter';
import {
  activityIds,
  buildCatalog,
  datasetIds,
  generateLearnerActivity,
  generateLearners,
  type DatasetOptions,
  type LearnerActivity,
} from './generate';

/** The demo owner account; the README and the start-up log print these credentials. */
export const DEMO_OWNER = {
  email: 'demo@courselens.dev',
  password: 'courselens-demo',
  name: 'Dana Demo',
} as const;

export const DEMO_ORGANIZATION = { name: 'Acme Learning', subdomain: 'acme-learning' } as const;

/** The demo organization is on Business, with its caps copied on as billing would. */
const BUSINESS_LIMITS = planById('business').limits;

export const DEFAULT_SEED = 42;
export const DEFAULT_DEMO_LEARNERS = 200;

/** Advisory lock taken by seedIfEmpty (the migration lock is 727_001). */
export const SEED_LOCK_KEY = 727_002;

export type SeedOwner = { email: string; password: string; name: string };

export type SeedOptions = {
  /** PRNG seed: the same seed (and `now`) gives the same data. Default 42. */
  seed?: number;
  /** The end of the generated activity window. Default: the current time. */
  now?: Date;
  /** Days of activity before `now`. Default 90. */
  days?: number;
  /** Number of learners. Default 200. */
  learners?: number;
  /** Default: Acme Learning (acme-learning). */
  organization?: Pick<NewOrganization, 'name' | 'subdomain'> &
    Partial<Pick<NewOrganization, 'plan' | 'maxLearners' | 'maxCourses' | 'maxChatbots'>>;
  /**
   * The owner. An existing account with this e-mail is reused (and gets a
   * membership); otherwise it is created. Default DEMO_OWNER.
   */
  owner?: SeedOwner;
  /** Hashes the owner's password for auth_account.password. Default: scrypt `salt:key` hex (Better Auth's format). */
  hashPassword?: PasswordHasher;
  /** Rows per INSERT statement. Default 1000. */
  batchSize?: number;
  /** How batches are sent (see InsertMode). Default `unnest`. */
  insertMode?: InsertMode;
  /** Learners generated and written per round of the activity phase. Default 1000. */
  learnersPerChunk?: number;
  /**
   * PGlite only: checkpoint between rounds when the WAL grew
   * (`checkpointIfWalGrew`). A phase is one transaction, so nothing else
   * could, and 100 000 learners write over 13 GB of WAL.
   */
  checkpointWal?: boolean;
  /** Called after every insert statement, e.g. for a progress line. */
  onProgress?: (progress: { phase: SeedPhase; table: string; rows: number }) => void;
};

export type SeedPhase = 'organization' | 'catalog' | 'learners' | 'activity';

export type SeedCounts = {
  organizations: number;
  authUsers: number;
  authAccounts: number;
  users: number;
  userOrganizations: number;
  courses: number;
  broadcasts: number;
  activityEvents: number;
  variables: number;
  questions: number;
  learners: number;
  courseRuns: number;
  learnerVariableValues: number;
  courseRunQuestions: number;
  /** The log rows only the seed knows (slides viewed, passed, failed), not the back-filled ones. */
  learningEvents: number;
  learningEventKeys: number;
};

export type SeedResult = {
  organizationId: string;
  organizationName: string;
  subdomain: string;
  ownerUserId: string;
  ownerEmail: string;
  /** True when the owner account was created by this seed (false: an existing one was reused). */
  isOwnerCreated: boolean;
  counts: SeedCounts;
  totalRows: number;
  elapsedMs: number;
  phases: { phase: SeedPhase; rows: number; ms: number }[];
  /** Per table: rows, INSERT statements and the time the database spent on them. */
  tables: Record<string, TableTiming>;
  /** The generator's options, to regenerate the same rows (the benchmark does). */
  dataset: DatasetOptions;
};

const COUNT_KEYS: Record<string, keyof SeedCounts> = {
  [getTableName(organizations)]: 'organizations',
  [getTableName(authUsers)]: 'authUsers',
  [getTableName(authAccounts)]: 'authAccounts',
  [getTableName(users)]: 'users',
  [getTableName(userOrganizations)]: 'userOrganizations',
  [getTableName(courses)]: 'courses',
  [getTableName(broadcasts)]: 'broadcasts',
  [getTableName(activityEvents)]: 'activityEvents',
  [getTableName(variables)]: 'variables',
  [getTableName(questions)]: 'questions',
  [getTableName(learners)]: 'learners',
  [getTableName(courseRuns)]: 'courseRuns',
  [getTableName(learnerVariableValues)]: 'learnerVariableValues',
  [getTableName(courseRunQuestions)]: 'courseRunQuestions',
  [getTableName(learningEvents)]: 'learningEvents',
  [getTableName(learningEventKeys)]: 'learningEventKeys',
};

/** Recomputes the organization's rollups of runs, answers and values (after a bulk load). */
export async function rebuildRollups(db: Database, organizationId: string): Promise<void> {
  await db.execute(sql`
    select rollup_course_learners_recompute(array_agg(organization_id), array_agg(course_id), array_agg(learner_id))
    from (select distinct organization_id, course_id, learner_id from course_runs
          where organization_id = ${organizationId}) as pairs`);
  await db.execute(sql`
    select rollup_course_days_recompute(array_agg(organization_id), array_agg(course_id), array_agg(day))
    from (select distinct organization_id, course_id, (created_at at time zone 'UTC')::date as day from course_runs
          where organization_id = ${organizationId}) as days`);
  await db.execute(sql`
    select rollup_questions_recompute(array_agg(organization_id), array_agg(id))
    from questions where organization_id = ${organizationId}`);
  await db.execute(sql`
    select rollup_variables_recompute(array_agg(organization_id), array_agg(id))
    from variables where organization_id = ${organizationId}`);
}

/**
 * Creates an organization full of plausible learning data: an owner who can
 * sign in, five courses with variables of every data type and quiz questions
 * (some hard), `learners` learners with course runs over the last `days`
 * days, values and answers (with drop-off on later slides). Deterministic for
 * a seed and `now`; rows go in multi-row INSERTs, one transaction per phase.
 * About 10 values and 15 answers per learner, so 100 000 learners give about
 * a million values.
 */
export async function seedDemo(db: Database, options: SeedOptions = {}): Promise<SeedResult> {
  const began = performance.now();
  const seed = options.seed ?? DEFAULT_SEED;
  const now = options.now ?? new Date();
  const organizationSpec = options.organization ?? {
    ...DEMO_ORGANIZATION,
    plan: 'business' as const,
    maxLearners: BUSINESS_LIMITS.maxLearners,
    maxCourses: BUSINESS_LIMITS.maxCourses,
    maxChatbots: BUSINESS_LIMITS.maxChatbots,
  };
  const owner = options.owner ?? DEMO_OWNER;
  const namespace = `${seed}:${organizationSpec.subdomain}`;
  const phases: SeedResult['phases'] = [];
  let phase: SeedPhase = 'organization';
  const inserter = new BatchInserter({
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    mode: options.insertMode ?? 'unnest',
    onRows: (table, rows) => options.onProgress?.({ phase, table, rows }),
  });
  const runPhase = async (name: SeedPhase, work: (tx: Database) => Promise<void>) => {
    phase = name;
    const rowsBefore = inserter.totalRows();
    const phaseBegan = performance.now();
    await db.transaction(async (tx) => work(tx));
    phases.push({ phase: name, rows: inserter.totalRows() - rowsBefore, ms: performance.now() - phaseBegan });
  };

  // Hash before any transaction: scrypt takes a while and holds nothing.
  const ownerEmail = owner.email.trim().toLowerCase();
  const [existingOwner] = await db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.email, ownerEmail))
    .limit(1);
  const passwordHash = existingOwner
    ? undefined
    : await (options.hashPassword ?? hashPasswordWithScrypt)(owner.password);

  const organizationId = datasetIds(namespace, 'organization').at(0);
  const ownerUserId = existingOwner?.id ?? datasetIds(namespace, 'authUser').at(0);
  const dataset: DatasetOptions = {
    seed,
    now,
    days: options.days ?? 90,
    learners: options.learners ?? DEFAULT_DEMO_LEARNERS,
    namespace,
    organizationId,
    ownerUserId,
  };
  const createdAt = new Date(now.getTime() - (dataset.days + 60) * 86_400_000);

  await runPhase('organization', async (tx) => {
    await inserter.insert(tx, organizations, [
      buildOrganization({
        id: organizationId,
        ownerId: null,
        createdAt,
        updatedAt: createdAt,
        ...organizationSpec,
      }),
    ]);
    let isPrimary = true;
    if (passwordHash !== undefined) {
      await inserter.insert(tx, authUsers, [
        buildAuthUser({
          id: ownerUserId,
          email: ownerEmail,
          name: owner.name,
          emailVerified: true,
          createdAt,
          updatedAt: createdAt,
        }),
      ]);
      await inserter.insert(tx, authAccounts, [
        buildCredentialAccount({
          id: datasetIds(namespace, 'authAccount').at(0),
          userId: ownerUserId,
          password: passwordHash,
          createdAt,
          updatedAt: createdAt,
        }),
      ]);
    } else {
      const [primary] = await tx
        .select({ id: userOrganizations.id })
        .from(userOrganizations)
        .where(sql`${userOrganizations.userId} = ${ownerUserId} and ${userOrganizations.isPrimary}`)
        .limit(1);
      isPrimary = primary === undefined;
    }
    const [profile] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.userId, ownerUserId))
      .limit(1);
    if (!profile) {
      await inserter.insert(tx, users, [
        buildUserProfile({
          id: datasetIds(namespace, 'userProfile').at(0),
          userId: ownerUserId,
          organizationId,
          name: owner.name,
          email: ownerEmail,
          role: 'owner',
          createdAt,
          updatedAt: createdAt,
        }),
      ]);
    }
    await inserter.insert(tx, userOrganizations, [
      buildMembership({
        id: datasetIds(namespace, 'membership').at(0),
        userId: ownerUserId,
        organizationId,
        role: 'owner',
        isPrimary,
        createdAt,
        updatedAt: createdAt,
      }),
    ]);
    await tx.update(organizations).set({ ownerId: ownerUserId }).where(eq(organizations.id, organizationId));
  });

  const catalog = buildCatalog(dataset);
  await runPhase('catalog', async (tx) => {
    await inserter.insert(tx, courses, catalog.rows.courses);
    await inserter.insert(tx, broadcasts, catalog.rows.broadcasts);
    await inserter.insert(tx, variables, catalog.rows.variables);
    await inserter.insert(tx, questions, catalog.rows.questions);
    await inserter.insert(tx, activityEvents, catalog.rows.activity);
  });

  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  await runPhase('learners', async (tx) => {
    let batch: (typeof learners.$inferInsert)[] = [];
    for (const learner of generateLearners(dataset, catalog)) {
      batch.push(learner);
      if (batch.length === batchSize) {
        await inserter.insert(tx, learners, batch);
        batch = [];
      }
    }
    await inserter.insert(tx, learners, batch);
  });

  const learnersPerChunk = options.learnersPerChunk ?? 1000;
  const keepWalBounded = async (tx: Database) => {
    if (options.checkpointWal) await checkpointIfWalGrew(tx);
  };
  await runPhase('activity', async (tx) => {
    // The rollup triggers skip this transaction's statements (see migration
    // 0004) and the rollups are rebuilt once at the end of the phase.
    await tx.execute(sql`set local courselens.bulk_load = 'on'`);
    // Every event falls between the window's first start and now: the log's
    // month partitions for them, made here as the back-fill makes its own
    // (no advisory lock: the seed may run under seedIfEmpty's, same key).
    await tx.execute(sql`
      select learning_events_partition(m::date)
      from generate_series(
        date_trunc('month', ${new Date(now.getTime() - dataset.days * 86_400_000).toISOString()}::timestamptz at time zone 'UTC'),
        date_trunc('month', ${now.toISOString()}::timestamptz at time zone 'UTC'),
        interval '1 month') as m`);
    const ids = activityIds(namespace);
    for (let from = 0; from < dataset.learners; from += learnersPerChunk) {
      const chunk: LearnerActivity = { runs: [], values: [], responses: [], events: [] };
      const to = Math.min(dataset.learners, from + learnersPerChunk);
      for (let index = from; index < to; index += 1) {
        const activity = generateLearnerActivity(dataset, catalog, index, ids);
        chunk.runs.push(...activity.runs);
        chunk.values.push(...activity.values);
        chunk.responses.push(...activity.responses);
        chunk.events.push(...activity.events);
      }
      await inserter.insert(tx, courseRuns, chunk.runs);
      await inserter.insert(tx, learnerVariableValues, chunk.values);
      await inserter.insert(tx, courseRunQuestions, chunk.responses);
      await inserter.insert(tx, learningEvents, chunk.events);
      // Each seeded event's idempotency key, as ingestion claims one per event.
      await inserter.insert(
        tx,
        learningEventKeys,
        chunk.events.map((event) => ({
          organizationId,
          eventId: event.eventId,
          occurredAt: event.occurredAt,
          receivedAt: event.receivedAt,
        })),
      );
      await keepWalBounded(tx);
    }
    // Statistics of the rows just written (ANALYZE counts this transaction's
    // own rows): without them the planner guesses on empty-table figures and
    // may walk a whole course's answers for each learner in the rebuild.
    await tx.execute(
      sql`analyze course_runs, course_run_questions, learner_variable_values, learning_events`,
    );
    await rebuildRollups(tx, organizationId);
    await keepWalBounded(tx);
    // The seeded history in the learning-event log, as if it had been ingested.
    await tx.execute(sql`select backfill_learning_events(${organizationId}::uuid)`);
    await keepWalBounded(tx);
    // The log's own rollups, the answers' hourly one and the runs' answer sheets, whose triggers the bulk load skipped too. A
    // database migrated to before a rollup existed (tests of older
    // migrations seed one) has it back-filled by the migration that adds it.
    for (const recompute of [
      'rollup_activity_hours_recompute',
      'rollup_course_last_slides_recompute',
      'rollup_answer_hours_recompute',
      'rollup_answer_sheets_recompute',
    ]) {
      const found = await tx.execute<{ exists: boolean }>(
        sql`select to_regprocedure(${`${recompute}(uuid)`}) is not null as exists`,
      );
      if (found.rows[0]?.exists) {
        await tx.execute(sql`select ${sql.identifier(recompute)}(${organizationId}::uuid)`);
        await keepWalBounded(tx);
      }
    }
  });

  // PGlite has no autovacuum daemon, so without this the planner keeps the
  // empty-table statistics and picks nested loops over every seeded row
  // (a 20 000-learner list took a minute instead of milliseconds). VACUUM
  // also marks the pages all-visible, so covering indexes answer alone.
  await db.execute(sql`vacuum analyze`);

  const counts = Object.fromEntries(Object.values(COUNT_KEYS).map((key) => [key, 0])) as SeedCounts;
  for (const [table, timing] of inserter.timings) {
    const key = COUNT_KEYS[table];
    if (key) counts[key] += timing.rows;
  }
  return {
    organizationId,
    organizationName: organizationSpec.name,
    subdomain: organizationSpec.subdomain,
    ownerUserId,
    ownerEmail,
    isOwnerCreated: passwordHash !== undefined,
    counts,
    totalRows: inserter.totalRows(),
    elapsedMs: performance.now() - began,
    phases,
    tables: Object.fromEntries(inserter.timings),
    dataset,
  };
}

/**
 * Seeds the demo organization when the database has no organization yet, so
 * a second start (or a second process starting at the same time: the check
 * and the seed run under an advisory lock) seeds nothing. Returns the seed's
 * result, or null when there was already data.
 */
export async function seedIfEmpty(
  connection: DatabaseConnection,
  options: SeedOptions = {},
): Promise<SeedResult | null> {
  return connection.withAdvisoryLock(SEED_LOCK_KEY, async () => {
    const [existing] = await connection.db.select({ id: organizations.id }).from(organizations).limit(1);
    if (existing) return null;
    return seedDemo(connection.db, { checkpointWal: connection.kind === 'pglite', ...options });
  });
}

/**
 * The plan of a benchmark organization: Business, with caps raised well past
 * what it holds (as an operator's override would), so benchmarks measure the
 * write path of an organization under its caps.
 */
export function benchOrganizationPlan(learners: number) {
  return {
    plan: 'business' as const,
    maxLearners: 10 * learners + 100_000,
    maxCourses: 10_000,
    maxChatbots: 1_000,
  };
}

/**
 * Name and subdomain for the next large benchmark organization: "Bench Org <n>", bench-org-<n>, or
 * another label's ("Ingest Bench Org <n>", ingest-bench-org-<n>).
 */
export async function nextBenchOrganization(
  db: Database,
  label = 'Bench Org',
): Promise<{ name: string; subdomain: string }> {
  const slug = label.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-');
  const pattern = `^${slug}-([0-9]+)$`;
  const [row] = await db
    .select({
      n: sql<number | string | null>`max(substring(${organizations.subdomain} from ${pattern})::int)`,
    })
    .from(organizations)
    .where(sql`${organizations.subdomain} ~ ${pattern}`);
  const n = Number(row?.n ?? 0) + 1;
  return { name: `${label} ${n}`, subdomain: `${slug}-${n}` };
}
