// The SQL a request runs, captured where Drizzle turns a query into text and
// parameters (both engines, inside transactions too), then replayed under
// EXPLAIN (ANALYZE, BUFFERS) in a transaction that is rolled back, and the
// plan boiled down to the lines worth reading: time, rows, buffers, the
// slowest nodes, sequential scans of big tables, sorts and hashes that spill.
import type { PGlite } from '@electric-sql/pglite';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { DatabaseConnection } from '../../apps/server/src/db/client';
import { keyDialect } from '../../apps/server/src/modules/metrics/result-cache';

export type CapturedStatement = { text: string; params: unknown[] };

let capturing: CapturedStatement[] | null = null;
let isPatched = false;

/** Starts recording every statement Drizzle builds in this process (until `stopCapture`). */
export function startCapture(): void {
  if (!isPatched) {
    isPatched = true;
    // Wrapped on the prototype, so every Drizzle instance (and its transactions) reports here.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const original = PgDialect.prototype.sqlToQuery;
    PgDialect.prototype.sqlToQuery = function sqlToQuery(this: PgDialect, ...args) {
      const query = original.apply(this, args);
      // A kept result's key is rendered as well as its statement run: only the run is the request's.
      if (this !== keyDialect) capturing?.push({ text: query.sql, params: [...query.params] });
      return query;
    };
  }
  capturing = [];
}

export function stopCapture(): CapturedStatement[] {
  const captured = capturing ?? [];
  capturing = null;
  return captured;
}

/** Tables of the request's plumbing (session, membership, rate limits): not the endpoint's own queries. */
const PLUMBING_TABLES = new Set([
  'auth_session',
  'auth_user',
  'auth_account',
  'auth_verification',
  'organizations',
  'users',
  'user_organizations',
  'rate_limit_buckets',
  'app_settings',
  'api_keys',
]);

/** Below this many rows a sequential scan is not worth a line. */
const BIG_SCAN_ROWS = 10_000;
/** Inner loops from this many repetitions on are worth a line. */
const MANY_LOOPS = 5_000;

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Actual Total Time'?: number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Temp Written Blocks'?: number;
  'Sort Method'?: string;
  'Sort Space Type'?: string;
  'Sort Space Used'?: number;
  'Hash Batches'?: number;
  'Peak Memory Usage'?: number;
  Plans?: PlanNode[];
};

type ExplainJson = [{ Plan: PlanNode; 'Planning Time': number; 'Execution Time': number }];

export type PlanSummary = {
  /** The statement, shortened to one line. */
  sql: string;
  executionMs: number;
  planningMs: number;
  rows: number;
  sharedHit: number;
  sharedRead: number;
  tempWritten: number;
  relations: string[];
  /** The statement only reads the request's plumbing (session, membership). */
  isPlumbing: boolean;
  /** Lines that point at a problem (big sequential scans, many loops, spills). */
  findings: string[];
  /** The nodes that took the most time of their own. */
  slowest: string[];
  /** The plan as EXPLAIN prints it (text), when asked for. */
  text?: string;
};

const isRead = (text: string) =>
  /^\s*(select|with)\b/i.test(text) && !/\b(insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i.test(text);
const isSetting = (text: string) => /^\s*(set\s|select\s+set_config\()/i.test(text);

const oneLine = (text: string, max = 110) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** Partitions of the event log read as one table in the findings. */
const tableOf = (relation: string) => relation.replace(/^(learning_events)_\d{4}_\d{2}$/, '$1 (a month)');

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

function nodeLabel(node: PlanNode): string {
  const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const index = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  return `${node['Node Type']}${on}${index}`;
}

/** Time a node spent itself: its total over its loops minus its children's. */
function selfMs(node: PlanNode): number {
  const total = (node['Actual Total Time'] ?? 0) * (node['Actual Loops'] ?? 1);
  const children = (node.Plans ?? []).reduce(
    (sum, child) => sum + (child['Actual Total Time'] ?? 0) * (child['Actual Loops'] ?? 1),
    0,
  );
  return Math.max(0, total - children);
}

export function summarizePlan(statement: string, explain: ExplainJson, text?: string): PlanSummary {
  const [root] = explain;
  const relations = new Set<string>();
  const findings: string[] = [];
  const seqScans = new Map<string, { rows: number; removed: number; ms: number; scans: number }>();
  const nodes: { label: string; ms: number; rows: number; loops: number }[] = [];
  walk(root.Plan, (node) => {
    const loops = node['Actual Loops'] ?? 1;
    const rows = (node['Actual Rows'] ?? 0) * loops;
    if (node['Relation Name']) relations.add(tableOf(node['Relation Name']));
    nodes.push({ label: nodeLabel(node), ms: selfMs(node), rows, loops });
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) {
      const table = tableOf(node['Relation Name']);
      const scan = seqScans.get(table) ?? { rows: 0, removed: 0, ms: 0, scans: 0 };
      scan.rows += rows;
      scan.removed += (node['Rows Removed by Filter'] ?? 0) * loops;
      scan.ms += (node['Actual Total Time'] ?? 0) * loops;
      scan.scans += 1;
      seqScans.set(table, scan);
    }
    if (loops >= MANY_LOOPS && node['Relation Name']) {
      findings.push(
        `${nodeLabel(node)}: ${loops.toLocaleString('en-US')} loops (${rows.toLocaleString('en-US')} rows)`,
      );
    }
    if (node['Sort Space Type'] === 'Disk') {
      findings.push(`Sort spilled to disk: ${node['Sort Method'] ?? ''} ${node['Sort Space Used'] ?? 0} kB`);
    }
    if ((node['Hash Batches'] ?? 1) > 1) {
      findings.push(`Hash in ${node['Hash Batches']} batches (spilled past work_mem)`);
    }
  });
  for (const [table, scan] of seqScans) {
    const read = scan.rows + scan.removed;
    if (read < BIG_SCAN_ROWS) continue;
    findings.push(
      `Seq Scan on ${table}${scan.scans > 1 ? ` (${scan.scans} scans)` : ''}: read ${read.toLocaleString('en-US')} rows, ` +
        `kept ${scan.rows.toLocaleString('en-US')}, ${scan.ms.toFixed(1)} ms`,
    );
  }
  const slowest = nodes
    .filter((node) => node.ms >= 0.5)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map(
      (node) =>
        `${node.label}: ${node.ms.toFixed(1)} ms, ${node.rows.toLocaleString('en-US')} rows` +
        (node.loops > 1 ? ` in ${node.loops.toLocaleString('en-US')} loops` : ''),
    );
  const sharedHit = root.Plan['Shared Hit Blocks'] ?? 0;
  const sharedRead = root.Plan['Shared Read Blocks'] ?? 0;
  const tempWritten = root.Plan['Temp Written Blocks'] ?? 0;
  const relationList = [...relations].sort();
  return {
    sql: oneLine(statement),
    executionMs: root['Execution Time'],
    planningMs: root['Planning Time'],
    rows: root.Plan['Actual Rows'] ?? 0,
    sharedHit,
    sharedRead,
    tempWritten,
    relations: relationList,
    isPlumbing: relationList.every((relation) => PLUMBING_TABLES.has(relation)),
    findings,
    slowest,
    ...(text === undefined ? {} : { text }),
  };
}

type Runner = {
  query: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
  done: () => Promise<void>;
};

async function openRunner(connection: DatabaseConnection): Promise<Runner> {
  const client = (connection.db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (connection.kind === 'pglite') {
    const pglite = connection.pglite ?? (client as PGlite);
    await pglite.query('begin');
    return {
      query: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
      done: async () => {
        await pglite.query('rollback');
      },
    };
  }
  const pooled = await (client as pg.Pool).connect();
  await pooled.query('begin');
  return {
    query: async (text, params) => (await pooled.query<Record<string, unknown>>(text, params)).rows,
    done: async () => {
      try {
        await pooled.query('rollback');
      } finally {
        pooled.release();
      }
    },
  };
}

/**
 * Replays the statements in order in one transaction that is rolled back:
 * settings (`set local ...`) run as they are, reads run under
 * EXPLAIN (ANALYZE, BUFFERS), writes are left out (EXPLAIN ANALYZE would
 * perform them). Returns one summary per read.
 */
export async function explainStatements(
  connection: DatabaseConnection,
  statements: readonly CapturedStatement[],
  options: { withText?: boolean } = {},
): Promise<PlanSummary[]> {
  const runner = await openRunner(connection);
  const summaries: PlanSummary[] = [];
  try {
    for (const statement of statements) {
      if (isSetting(statement.text)) {
        await runner.query(statement.text, statement.params);
        continue;
      }
      if (!isRead(statement.text)) continue;
      const [row] = await runner.query(
        `explain (analyze, buffers, format json) ${statement.text}`,
        statement.params,
      );
      const raw = row?.['QUERY PLAN'];
      const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as ExplainJson;
      let text: string | undefined;
      if (options.withText) {
        const lines = await runner.query(`explain (analyze, buffers) ${statement.text}`, statement.params);
        text = lines.map((line) => String(line['QUERY PLAN'])).join('\n');
      }
      summaries.push(summarizePlan(statement.text, json, text));
    }
  } finally {
    await runner.done();
  }
  return summaries;
}
