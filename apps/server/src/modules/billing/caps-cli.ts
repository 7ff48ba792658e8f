// `npm run billing:caps -- --organization <subdomain> [--max-learners N|plan] [--max-courses N|plan] [--max-chatbots N|plan]`
//
// An operator's caps for one organization (a contract beyond the plan, a
// self-hosted install without limits): kept across plan changes, applied at
// once, logged in the organization's activity. `plan` puts a cap back to the
// plan's. Without a cap option it prints the caps in force. Works on the
// database of DATABASE_URL, else the PGlite folder DATA_DIR.
import { parseArgs } from 'node:util';
import { BILLING_METRICS, type BillingMetric } from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import { openCliDatabase } from '../../db/cli-database';
import { runMigrations } from '../../db/migrate';
import { setCapOverrides } from './billing.service';
import { loadEntitlements } from './entitlements';

export type CapsCommand = {
  subdomain: string;
  overrides: Partial<Record<BillingMetric, number | null>>;
};

const USAGE =
  'usage: npm run billing:caps -- --organization <subdomain> [--max-learners N|plan] [--max-courses N|plan] [--max-chatbots N|plan]\n';

/** Reads the command line; throws with a message a person can act on. */
export function parseCapsCli(argv: readonly string[]): CapsCommand {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      organization: { type: 'string' },
      'max-learners': { type: 'string' },
      'max-courses': { type: 'string' },
      'max-chatbots': { type: 'string' },
    },
    strict: true,
  });
  if (!values.organization) throw new Error(`--organization <subdomain> is required\n${USAGE}`);
  const overrides: CapsCommand['overrides'] = {};
  for (const metric of BILLING_METRICS) {
    const raw = values[`max-${metric}`];
    if (raw === undefined) continue;
    if (raw === 'plan') overrides[metric] = null;
    else if (/^\d{1,9}$/.test(raw)) overrides[metric] = Number(raw);
    else throw new Error(`--max-${metric} must be a whole number or "plan" (got "${raw}")`);
  }
  return { subdomain: values.organization.trim().toLowerCase(), overrides };
}

async function main(): Promise<void> {
  const command = parseCapsCli(process.argv.slice(2));
  const { connection, lock, where } = await openCliDatabase();
  try {
    process.stdout.write(`Database: ${where}\n`);
    await runMigrations(connection);
    const found = await connection.db.execute<{ id: string; name: string }>(
      sql`select id, name from organizations where subdomain = ${command.subdomain}`,
    );
    const organization = found.rows[0];
    if (!organization) throw new Error(`No organization has the subdomain "${command.subdomain}"`);
    const caps =
      Object.keys(command.overrides).length > 0
        ? await setCapOverrides(connection.db, organization.id, command.overrides)
        : (await loadEntitlements(connection.db, organization.id)).caps;
    process.stdout.write(
      `${organization.name}: ${BILLING_METRICS.map((metric) => `${caps[metric].toLocaleString('en-US')} ${metric}`).join(', ')}\n`,
    );
  } finally {
    await connection.close();
    lock?.release();
  }
}

if (process.argv[1]?.endsWith('caps-cli.ts')) {
  main().catch((error: unknown) => {
    process.stderr.write(`billing:caps failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
