import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { aiSummaries, type AiEngine, type AiSummarySourceKind } from '../../db/schema';

// The AI summary's own table: one cached summary per organization and
// source. The figures it is written from come from the metrics layer
// (`metrics/statistics.*`), which reads the source's values where
// `metrics/value-source.ts` says they live.

export type CachedSummaryRow = {
  engine: AiEngine;
  model: string | null;
  content: string;
  statistics: unknown;
  generated_at: Date | string;
};

export async function findCachedSummary(
  db: Database,
  input: { organizationId: string; sourceKind: AiSummarySourceKind; sourceKey: string },
): Promise<CachedSummaryRow | undefined> {
  const result = await db.execute<CachedSummaryRow>(sql`
    select engine, model, content, statistics, generated_at
    from ${aiSummaries}
    where organization_id = ${input.organizationId} and source_kind = ${input.sourceKind}
      and source_key = ${input.sourceKey}
    limit 1`);
  return result.rows[0];
}

/** Stores a source's summary, replacing the previous one (one per organization and source). */
export async function upsertSummary(
  db: Database,
  input: {
    organizationId: string;
    sourceKind: AiSummarySourceKind;
    sourceKey: string;
    engine: AiEngine;
    model: string | null;
    content: string;
    statistics: Record<string, unknown>;
    generatedAt: Date;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(aiSummaries)
      .values(input)
      .onConflictDoUpdate({
        target: [aiSummaries.organizationId, aiSummaries.sourceKind, aiSummaries.sourceKey],
        set: {
          engine: input.engine,
          model: input.model,
          content: input.content,
          statistics: input.statistics,
          generatedAt: input.generatedAt,
          updatedAt: sql`now()`,
        },
      });
  });
}
