import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  actions,
  activityEvents,
  apiKeys,
  courses,
  customReports,
  invitations,
  learners,
  organizations,
  pipelines,
  analyticsFunnels,
  analyticsInsights,
  chatbots,
  chatbotVariables,
  questions,
  variables,
  userOrganizations,
  type MemberRole,
  type NewActivityEvent,
  type OrganizationPlan,
} from '../../db/schema';
import { planById } from '@courselens/contracts';

export async function isSubdomainTaken(db: Database, subdomain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.subdomain, subdomain))
    .limit(1);
  return row !== undefined;
}

/** The caller's memberships with their organizations, primary first, then oldest first. */
export async function listMemberships(db: Database, userId: string) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      subdomain: organizations.subdomain,
      role: userOrganizations.role,
      isPrimary: userOrganizations.isPrimary,
    })
    .from(userOrganizations)
    .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
    .where(eq(userOrganizations.userId, userId))
    .orderBy(desc(userOrganizations.isPrimary), asc(userOrganizations.createdAt), asc(organizations.name));
}

export async function findMembership(db: Database, userId: string, organizationId: string) {
  const [row] = await db
    .select({ role: userOrganizations.role, isPrimary: userOrganizations.isPrimary })
    .from(userOrganizations)
    .where(and(eq(userOrganizations.userId, userId), eq(userOrganizations.organizationId, organizationId)))
    .limit(1);
  return row;
}

/**
 * The plan columns of a new organization: Free, with its caps copied on, so
 * what a new organization may hold is decided by the plan definitions.
 */
export function newOrganizationPlan() {
  const limits = planById('free').limits;
  return {
    plan: 'free' as const,
    maxLearners: limits.maxLearners,
    maxCourses: limits.maxCourses,
    maxChatbots: limits.maxChatbots,
  };
}

/** The organization's plan and caps, with the owner's e-mail (billing reads them; the caps are enforced from here). */
export async function findOrganizationPlan(db: Database, organizationId: string) {
  const result = await db.execute<{
    name: string;
    plan: string;
    max_learners: number | null;
    max_courses: number | null;
    max_chatbots: number | null;
    owner_email: string | null;
  }>(sql`
    select o.name, o.plan, o.max_learners, o.max_courses, o.max_chatbots,
           (select u.email from auth_user u where u.id = o.owner_id) as owner_email
    from ${organizations} o
    where o.id = ${organizationId}`);
  return result.rows[0];
}

/** The organization's name and its owners' e-mail addresses: who hears of digests, usage and payments. */
export async function selectOwnerRecipients(db: Database, organizationId: string) {
  const result = await db.execute<{ name: string; email: string | null }>(sql`
    select o.name, u.email
    from ${organizations} o
    left join ${userOrganizations} m on m.organization_id = o.id and m.role = 'owner'
    left join auth_user u on u.id = m.user_id
    where o.id = ${organizationId}
    order by u.email`);
  return {
    organizationName: result.rows[0]?.name ?? '',
    emails: result.rows.flatMap((row) => (row.email ? [row.email] : [])),
  };
}

/**
 * Sets the organization's plan and the caps in force: only billing decides
 * them (plan changes, overrides, a lapsed payment), through this function.
 */
export async function setOrganizationPlan(
  tx: Database,
  organizationId: string,
  values: { plan: OrganizationPlan; maxLearners: number; maxCourses: number; maxChatbots: number },
): Promise<void> {
  await tx.update(organizations).set(values).where(eq(organizations.id, organizationId));
}

export async function insertOrganizationWithOwner(
  db: Database,
  values: { name: string; subdomain: string; ownerId: string; isPrimary: boolean },
) {
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({
        name: values.name,
        subdomain: values.subdomain,
        ownerId: values.ownerId,
        ...newOrganizationPlan(),
      })
      .returning({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain });
    if (!organization) return undefined;
    await tx.insert(userOrganizations).values({
      userId: values.ownerId,
      organizationId: organization.id,
      role: 'owner' satisfies MemberRole,
      isPrimary: values.isPrimary,
    });
    return organization;
  });
}

export async function updateOrganizationRow(
  db: Database,
  organizationId: string,
  changes: { name?: string; subdomain?: string },
) {
  const [row] = await db
    .update(organizations)
    .set(changes)
    .where(eq(organizations.id, organizationId))
    .returning({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain });
  return row;
}

/** All memberships off, then the one on, in one transaction (a partial unique index allows one primary). */
export async function setPrimaryMembership(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(userOrganizations)
      .set({ isPrimary: false })
      .where(and(eq(userOrganizations.userId, userId), eq(userOrganizations.isPrimary, true)));
    await tx
      .update(userOrganizations)
      .set({ isPrimary: true })
      .where(and(eq(userOrganizations.userId, userId), eq(userOrganizations.organizationId, organizationId)));
  });
}

export async function insertActivity(db: Database, event: NewActivityEvent): Promise<void> {
  await db.insert(activityEvents).values(event);
}

/** The statement `insertActivity` runs, for a writer that sends it with others in one round trip. */
export function activityInsert(db: Database, event: NewActivityEvent): SQL {
  return db.insert(activityEvents).values(event).getSQL();
}

/** Resources the tenant plugin checks by route parameter before a handler runs. */
export type TenantResource =
  | 'apiKey'
  | 'invitation'
  | 'member'
  | 'course'
  | 'learner'
  | 'variable'
  | 'question'
  | 'customReport'
  | 'action'
  | 'pipeline'
  | 'chatbot'
  | 'chatbotVariable'
  | 'analyticsFunnel'
  | 'analyticsInsight';

/** How to find a resource's row of one organization: a course marked deleted no longer exists. */
function resourceCondition(resource: TenantResource, organizationId: string, id: string) {
  switch (resource) {
    case 'apiKey':
      return { table: apiKeys, where: and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id)) };
    case 'invitation':
      return {
        table: invitations,
        where: and(eq(invitations.organizationId, organizationId), eq(invitations.id, id)),
      };
    case 'member':
      return {
        table: userOrganizations,
        where: and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, id)),
      };
    case 'course':
      return {
        table: courses,
        where: and(
          eq(courses.organizationId, organizationId),
          eq(courses.id, id),
          eq(courses.isDeleted, false),
        ),
      };
    case 'learner':
      return {
        table: learners,
        where: and(eq(learners.organizationId, organizationId), eq(learners.id, id)),
      };
    case 'variable':
      return {
        table: variables,
        where: and(eq(variables.organizationId, organizationId), eq(variables.id, id)),
      };
    case 'question':
      return {
        table: questions,
        where: and(eq(questions.organizationId, organizationId), eq(questions.id, id)),
      };
    case 'customReport':
      return {
        table: customReports,
        where: and(eq(customReports.organizationId, organizationId), eq(customReports.id, id)),
      };
    case 'action':
      return { table: actions, where: and(eq(actions.organizationId, organizationId), eq(actions.id, id)) };
    case 'pipeline':
      return {
        table: pipelines,
        where: and(eq(pipelines.organizationId, organizationId), eq(pipelines.id, id)),
      };
    case 'chatbot':
      return {
        table: chatbots,
        where: and(eq(chatbots.organizationId, organizationId), eq(chatbots.id, id)),
      };
    case 'chatbotVariable':
      return {
        table: chatbotVariables,
        where: and(eq(chatbotVariables.organizationId, organizationId), eq(chatbotVariables.id, id)),
      };
    case 'analyticsFunnel':
      return {
        table: analyticsFunnels,
        where: and(eq(analyticsFunnels.organizationId, organizationId), eq(analyticsFunnels.id, id)),
      };
    case 'analyticsInsight':
      return {
        table: analyticsInsights,
        where: and(eq(analyticsInsights.organizationId, organizationId), eq(analyticsInsights.id, id)),
      };
  }
}

/** True when the row named by `id` belongs to the organization. */
export async function isResourceOfOrganization(
  db: Database,
  resource: TenantResource,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const { table, where } = resourceCondition(resource, organizationId, id);
  const rows = await db
    .select({ found: sql<number>`1` })
    .from(table)
    .where(where)
    .limit(1);
  return rows.length > 0;
}

export async function findOrganizationById(db: Database, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row;
}

/** The organization's name (null when it is gone), for what names it: shared views, templates. */
export async function findOrganizationName(db: Database, organizationId: string): Promise<string | null> {
  return (await findOrganizationById(db, organizationId))?.name ?? null;
}
