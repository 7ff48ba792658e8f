import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { learners } from '../../db/schema';
import { executeKept } from '../metrics/result-cache';
import { learnerExcluded, type ExclusionLists } from './analytics-filters.queries';

/**
 * All the organization's learners, and those the exclusion lists leave out.
 * Every analytics answer says how many it left out, so this runs on every
 * request: its count is kept with the other analytics results, or a request
 * served from them would still read every learner (10 to 15 ms at 100 000).
 */
export async function countExcludedLearners(db: Database, organizationId: string, lists: ExclusionLists) {
  const [row] = await executeKept<{ total: string | number; excluded: string | number }>(
    db,
    organizationId,
    sql`
    select count(*) as total,
           count(*) filter (where ${learnerExcluded(lists, sql`l.email`)}) as excluded
    from ${learners} l
    where l.organization_id = ${organizationId}`,
  );
  return { total: Number(row?.total ?? 0), excluded: Number(row?.excluded ?? 0) };
}
