import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  activityEvents,
  chatbots,
  chatbotVariables,
  courses,
  organizations,
  questions,
  sharedViews,
  variables,
  type NewActivityEvent,
  type SharedView,
} from '../../db/schema';

export type ShareKind = 'variable' | 'question' | 'chatbot_variable';
export type ShareTarget = { kind: ShareKind; id: string };

export type ShareTargetInfo = {
  courseId: string;
  /** The variable's name, or the question's text (or interaction id) for the activity feed. */
  label: string;
  variableName: string | null;
};

/** The variable or question of a live course of the organization. */
export async function findShareTarget(
  db: Database,
  organizationId: string,
  target: ShareTarget,
): Promise<ShareTargetInfo | undefined> {
  if (target.kind === 'chatbot_variable') {
    // An agent's variable: the agent stands where a course stands.
    const [row] = await db
      .select({ chatbotId: chatbotVariables.chatbotId, name: chatbotVariables.name })
      .from(chatbotVariables)
      .innerJoin(
        chatbots,
        and(
          eq(chatbots.organizationId, chatbotVariables.organizationId),
          eq(chatbots.id, chatbotVariables.chatbotId),
        ),
      )
      .where(and(eq(chatbotVariables.organizationId, organizationId), eq(chatbotVariables.id, target.id)))
      .limit(1);
    return row ? { courseId: row.chatbotId, label: row.name, variableName: row.name } : undefined;
  }
  if (target.kind === 'variable') {
    const [row] = await db
      .select({ courseId: variables.courseId, name: variables.name })
      .from(variables)
      .innerJoin(
        courses,
        and(eq(courses.organizationId, variables.organizationId), eq(courses.id, variables.courseId)),
      )
      .where(
        and(
          eq(variables.organizationId, organizationId),
          eq(variables.id, target.id),
          eq(courses.isDeleted, false),
        ),
      )
      .limit(1);
    return row ? { courseId: row.courseId, label: row.name, variableName: row.name } : undefined;
  }
  const [row] = await db
    .select({
      courseId: questions.courseId,
      text: questions.questionText,
      interactionId: questions.interactionId,
    })
    .from(questions)
    .innerJoin(
      courses,
      and(eq(courses.organizationId, questions.organizationId), eq(courses.id, questions.courseId)),
    )
    .where(
      and(
        eq(questions.organizationId, organizationId),
        eq(questions.id, target.id),
        eq(courses.isDeleted, false),
      ),
    )
    .limit(1);
  return row
    ? { courseId: row.courseId, label: row.text ?? row.interactionId, variableName: null }
    : undefined;
}

function targetCondition(organizationId: string, target: ShareTarget) {
  return and(
    eq(sharedViews.organizationId, organizationId),
    eq(sharedViews.kind, target.kind),
    target.kind === 'variable'
      ? eq(sharedViews.variableId, target.id)
      : target.kind === 'question'
        ? eq(sharedViews.questionId, target.id)
        : eq(sharedViews.chatbotVariableId, target.id),
  );
}

export async function selectShare(
  db: Database,
  organizationId: string,
  target: ShareTarget,
): Promise<SharedView | undefined> {
  const [row] = await db.select().from(sharedViews).where(targetCondition(organizationId, target)).limit(1);
  return row;
}

/**
 * Sets sharing of one target in a transaction: creates its row (with
 * `newToken`) the first time, switches `enabled`, or replaces the token
 * (`rotate`), and logs the activity `activity` returns for the change.
 */
export async function writeShare(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    target: ShareTarget;
    enabled?: boolean;
    rotate: boolean;
    newToken: string;
    activity: (previous: SharedView | undefined, next: SharedView) => NewActivityEvent | null;
  },
): Promise<SharedView> {
  return db.transaction(async (tx) => {
    const [previous] = await tx
      .select()
      .from(sharedViews)
      .where(targetCondition(input.organizationId, input.target))
      .for('update')
      .limit(1);
    let next: SharedView | undefined;
    if (!previous) {
      [next] = await tx
        .insert(sharedViews)
        .values({
          organizationId: input.organizationId,
          kind: input.target.kind,
          variableId: input.target.kind === 'variable' ? input.target.id : null,
          questionId: input.target.kind === 'question' ? input.target.id : null,
          chatbotVariableId: input.target.kind === 'chatbot_variable' ? input.target.id : null,
          token: input.newToken,
          enabled: input.enabled ?? false,
          createdBy: input.userId,
        })
        .returning();
    } else {
      [next] = await tx
        .update(sharedViews)
        .set({
          ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
          ...(input.rotate ? { token: input.newToken } : {}),
        })
        .where(and(eq(sharedViews.organizationId, previous.organizationId), eq(sharedViews.id, previous.id)))
        .returning();
    }
    if (!next) throw new Error('shared view write returned no row');
    const activity = input.activity(previous, next);
    if (activity) await tx.insert(activityEvents).values(activity);
    return next;
  });
}

/** Whose shared view a token opened: the organization's id, and its name to show the visitor. */
export type SharedViewClaim = { organizationId: string; organizationName: string };

type ClaimRow = { organization_id: string; organization_name: string };

function toClaim(row: ClaimRow | undefined): SharedViewClaim | undefined {
  return row ? { organizationId: row.organization_id, organizationName: row.organization_name } : undefined;
}

/**
 * The organization of an enabled shared course variable whose token matches
 * (course live, variable of that course and name), counting the view. One
 * statement, so a disabled or rotated share stops answering at once.
 */
export async function claimSharedVariableView(
  db: Database,
  input: { token: string; courseId: string; name: string },
): Promise<SharedViewClaim | undefined> {
  const result = await db.execute<ClaimRow>(sql`
    update ${sharedViews} sv set view_count = sv.view_count + 1
    from ${variables} v
    join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
    join ${organizations} o on o.id = c.organization_id
    where sv.token = ${input.token} and sv.enabled and sv.kind = 'variable'
      and v.id = sv.variable_id and v.organization_id = sv.organization_id
      and v.course_id = ${input.courseId} and v.name = ${input.name} and not c.is_deleted
    returning sv.organization_id, o.name as organization_name`);
  return toClaim(result.rows[0]);
}

/** The same for an agent's variable: the link names the agent and the variable's name. */
export async function claimSharedChatbotVariableView(
  db: Database,
  input: { token: string; chatbotId: string; name: string },
): Promise<SharedViewClaim | undefined> {
  const result = await db.execute<ClaimRow>(sql`
    update ${sharedViews} sv set view_count = sv.view_count + 1
    from ${chatbotVariables} v
    join ${organizations} o on o.id = v.organization_id
    where sv.token = ${input.token} and sv.enabled and sv.kind = 'chatbot_variable'
      and v.id = sv.chatbot_variable_id and v.organization_id = sv.organization_id
      and v.chatbot_id = ${input.chatbotId} and v.name = ${input.name}
    returning sv.organization_id, o.name as organization_name`);
  return toClaim(result.rows[0]);
}

export async function claimSharedQuestionView(
  db: Database,
  input: { token: string; questionId: string },
): Promise<SharedViewClaim | undefined> {
  const result = await db.execute<ClaimRow>(sql`
    update ${sharedViews} sv set view_count = sv.view_count + 1
    from ${questions} q
    join ${courses} c on c.organization_id = q.organization_id and c.id = q.course_id
    join ${organizations} o on o.id = c.organization_id
    where sv.token = ${input.token} and sv.enabled and sv.kind = 'question'
      and q.id = sv.question_id and q.organization_id = sv.organization_id
      and q.id = ${input.questionId} and not c.is_deleted
    returning sv.organization_id, o.name as organization_name`);
  return toClaim(result.rows[0]);
}
