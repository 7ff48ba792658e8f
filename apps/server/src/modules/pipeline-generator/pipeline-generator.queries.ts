import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { actions, chatbots, courses, variables } from '../../db/schema';

/** Names a sentence is read against, at most this many of each kind. */
const CATALOG_LIMIT = 500;

/**
 * The organization's courses (not deleted), their variables, its actions and
 * chatbots: names, types and ids only. An action's settings are not read:
 * they may hold encrypted secrets, and the generator matches actions by name.
 */
export async function selectGeneratorCatalog(db: Database, organizationId: string) {
  const [courseRows, variableRows, actionRows, chatbotRows] = await Promise.all([
    db.execute<{ id: string; course_title: string }>(sql`
      select id, course_title from ${courses}
      where organization_id = ${organizationId} and not is_deleted
      order by lower(course_title), id limit ${CATALOG_LIMIT}`),
    db.execute<{
      id: string;
      name: string;
      title: string | null;
      data_type: string;
      course_id: string;
      course_title: string;
    }>(sql`
      select v.id, v.name, v.title, v.data_type, v.course_id, c.course_title
      from ${variables} v join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
      where v.organization_id = ${organizationId} and not c.is_deleted
      order by lower(c.course_title), lower(v.name), v.id limit ${CATALOG_LIMIT}`),
    db.execute<{ id: string; name: string; action_type: string }>(sql`
      select id, name, action_type from ${actions}
      where organization_id = ${organizationId} and active
      order by lower(name), id limit ${CATALOG_LIMIT}`),
    db.execute<{ id: string; name: string }>(sql`
      select id, name from ${chatbots}
      where organization_id = ${organizationId}
      order by lower(name), id limit ${CATALOG_LIMIT}`),
  ]);
  return {
    courses: courseRows.rows,
    variables: variableRows.rows,
    actions: actionRows.rows,
    chatbots: chatbotRows.rows,
  };
}
