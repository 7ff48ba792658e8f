import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { courseVariableMappings, courses, variables } from '../../db/schema';

/** A course's variable (by the name the course sends) reported as another variable. */
export type CourseVariableMapping = {
  courseId: string;
  sourceVariableName: string;
  destinationVariableId: string;
};

const keyOf = (mapping: Pick<CourseVariableMapping, 'courseId' | 'sourceVariableName'>) =>
  `${mapping.courseId}\u0000${mapping.sourceVariableName}`;

/**
 * Changes the organization's course-variable mappings, in the caller's
 * transaction: the mappings in `remove` go (unless `keep` holds them too),
 * those of `keep` are written (a source mapped elsewhere before is pointed
 * at its new destination). The ingestion write path reads this table for
 * every `variable.set`, so a mapping holds from the commit on. Mappings of a
 * course or to a destination variable that does not exist are left out.
 *
 * The pipelines module calls this when a pipeline with map-variables nodes
 * is turned on or off, changed or deleted: a direct call rather than a
 * domain event, so the mappings change in the same transaction as the
 * pipeline (an event would leave a window in which ingested values go to
 * the wrong variable), while the table stays this module's to write.
 */
export async function applyCourseVariableMappings(
  db: Database,
  organizationId: string,
  change: { remove: readonly CourseVariableMapping[]; keep: readonly CourseVariableMapping[] },
): Promise<void> {
  const kept = new Map(change.keep.map((mapping) => [keyOf(mapping), mapping]));
  const gone = change.remove.filter((mapping) => !kept.has(keyOf(mapping)));
  for (const mapping of gone) {
    await db
      .delete(courseVariableMappings)
      .where(
        and(
          eq(courseVariableMappings.organizationId, organizationId),
          eq(courseVariableMappings.courseId, mapping.courseId),
          eq(courseVariableMappings.sourceVariableName, mapping.sourceVariableName),
        ),
      );
  }
  const wanted = [...kept.values()];
  if (wanted.length === 0) return;
  const destinations = new Set(
    (
      await db
        .select({ id: variables.id })
        .from(variables)
        .where(
          and(
            eq(variables.organizationId, organizationId),
            inArray(variables.id, [...new Set(wanted.map((mapping) => mapping.destinationVariableId))]),
          ),
        )
    ).map((row) => row.id),
  );
  const knownCourses = new Set(
    (
      await db
        .select({ id: courses.id })
        .from(courses)
        .where(
          and(
            eq(courses.organizationId, organizationId),
            inArray(courses.id, [...new Set(wanted.map((mapping) => mapping.courseId))]),
          ),
        )
    ).map((row) => row.id),
  );
  const rows = wanted
    .filter(
      (mapping) => destinations.has(mapping.destinationVariableId) && knownCourses.has(mapping.courseId),
    )
    .map((mapping) => ({ organizationId, ...mapping }));
  if (rows.length === 0) return;
  await db
    .insert(courseVariableMappings)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        courseVariableMappings.organizationId,
        courseVariableMappings.courseId,
        courseVariableMappings.sourceVariableName,
      ],
      set: { destinationVariableId: sql`excluded.destination_variable_id`, updatedAt: new Date() },
    });
}
