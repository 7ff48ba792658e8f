import { randomBytes } from 'node:crypto';
import {
  LEARNING_MESSAGES,
  SHARED_VIEW_MESSAGES,
  type SharedViewContext,
  type ShareSettings,
  isUuid,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { SharedView } from '../../db/schema';
import { AppError } from '../../errors';
import { resolveQuestion, type QuestionScope } from '../question-reports/question-reports.service';
import { resolveVariableSource, type ResolvedSource } from '../variable-reports/variable-reports.service';
import {
  claimSharedChatbotVariableView,
  claimSharedQuestionView,
  claimSharedVariableView,
  findShareTarget,
  selectShare,
  writeShare,
  type SharedViewClaim,
  type ShareTarget,
  type ShareTargetInfo,
} from './shared-views.queries';

/** 256 random bits, URL-safe: a link nobody can guess. */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

function notFoundFor(target: ShareTarget): AppError {
  return new AppError(
    'NOT_FOUND',
    target.kind === 'question' ? LEARNING_MESSAGES.questionNotFound : LEARNING_MESSAGES.variableNotFound,
  );
}

function toSettings(target: ShareTarget, info: ShareTargetInfo, row: SharedView | undefined): ShareSettings {
  return {
    kind: target.kind,
    enabled: row?.enabled ?? false,
    token: row?.token ?? null,
    viewCount: row?.viewCount ?? 0,
    courseId: info.courseId,
    variableName: info.variableName,
    questionId: target.kind === 'question' ? target.id : null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

async function targetInfo(
  db: Database,
  organizationId: string,
  target: ShareTarget,
): Promise<ShareTargetInfo> {
  const info = await findShareTarget(db, organizationId, target);
  if (!info) throw notFoundFor(target);
  return info;
}

export async function getShareSettings(
  db: Database,
  organizationId: string,
  target: ShareTarget,
): Promise<ShareSettings> {
  const info = await targetInfo(db, organizationId, target);
  return toSettings(target, info, await selectShare(db, organizationId, target));
}

function describe(target: ShareTarget, info: ShareTargetInfo): string {
  if (target.kind === 'chatbot_variable') return `agent variable “${info.label}”`;
  return target.kind === 'variable' ? `variable “${info.label}”` : `question “${info.label}”`;
}

/**
 * Switches sharing on or off (creating the token the first time) or
 * replaces the token so the old link stops working. Each change is a team
 * action in the activity feed; switching to the state it already has logs nothing.
 */
export async function changeShare(
  db: Database,
  input: { organizationId: string; userId: string; target: ShareTarget; enabled?: boolean; rotate?: boolean },
): Promise<ShareSettings> {
  const info = await targetInfo(db, input.organizationId, input.target);
  const rotate = input.rotate ?? false;
  const row = await writeShare(db, {
    organizationId: input.organizationId,
    userId: input.userId,
    target: input.target,
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    rotate,
    newToken: newShareToken(),
    activity: (previous, next) => {
      const base = {
        organizationId: input.organizationId,
        actorUserId: input.userId,
        subjectType: input.target.kind,
        subjectId: input.target.id,
        details: { courseId: info.courseId, kind: input.target.kind },
      };
      if (rotate) {
        return {
          ...base,
          kind: 'report.shared',
          summary: `Share link of ${describe(input.target, info)} replaced; the old link no longer works`,
          details: { ...base.details, rotated: true, enabled: next.enabled },
        };
      }
      if ((previous?.enabled ?? false) === next.enabled) return null;
      return {
        ...base,
        kind: next.enabled ? 'report.shared' : 'report.unshared',
        summary: next.enabled
          ? `Sharing of ${describe(input.target, info)} switched on`
          : `Sharing of ${describe(input.target, info)} switched off`,
      };
    },
  });
  return toSettings(input.target, info, row);
}

const notShared = () => new AppError('NOT_FOUND', SHARED_VIEW_MESSAGES.notShared);

/** A target gone since the token matched reads as not shared; any other failure stays what it is. */
function asNotShared(error: unknown): unknown {
  return error instanceof AppError && error.code === 'NOT_FOUND' ? notShared() : error;
}

function contextOf(claim: SharedViewClaim): SharedViewContext {
  return { organization: { name: claim.organizationName } };
}

/**
 * The source of a shared course variable view and the organization sharing
 * it, counting the visit. Any mismatch (malformed or wrong token, sharing
 * off, unknown course or name) is the same 404.
 */
export async function openSharedVariable(
  db: Database,
  input: { token?: string | undefined; courseId?: string | undefined; name?: string | undefined },
): Promise<{ source: ResolvedSource; context: SharedViewContext }> {
  const { token, courseId, name } = input;
  if (!token || !TOKEN.test(token) || !courseId || !isUuid(courseId) || !name) throw notShared();
  const claim = await claimSharedVariableView(db, { token, courseId, name });
  if (!claim) throw notShared();
  try {
    const source = await resolveVariableSource(db, {
      kind: 'course_variable',
      organizationId: claim.organizationId,
      courseId,
      name,
    });
    return { source, context: contextOf(claim) };
  } catch (error) {
    throw asNotShared(error);
  }
}

/** The source of a shared agent variable view (`courseId` names the agent), counting the visit. */
export async function openSharedChatbotVariable(
  db: Database,
  input: { token?: string | undefined; courseId?: string | undefined; name?: string | undefined },
): Promise<{ source: ResolvedSource; context: SharedViewContext }> {
  const { token, courseId: chatbotId, name } = input;
  if (!token || !TOKEN.test(token) || !chatbotId || !isUuid(chatbotId) || !name) throw notShared();
  const claim = await claimSharedChatbotVariableView(db, { token, chatbotId, name });
  if (!claim) throw notShared();
  try {
    const source = await resolveVariableSource(db, {
      kind: 'chatbot_variable',
      organizationId: claim.organizationId,
      chatbotId,
      name,
    });
    return { source, context: contextOf(claim) };
  } catch (error) {
    throw asNotShared(error);
  }
}

/** The scope of a shared question view and the organization sharing it, counting the visit. */
export async function openSharedQuestion(
  db: Database,
  input: { token?: string | undefined; questionId: string },
): Promise<{ scope: QuestionScope; context: SharedViewContext }> {
  const { token, questionId } = input;
  if (!token || !TOKEN.test(token) || !isUuid(questionId)) throw notShared();
  const claim = await claimSharedQuestionView(db, { token, questionId });
  if (!claim) throw notShared();
  try {
    return { scope: await resolveQuestion(db, claim.organizationId, questionId), context: contextOf(claim) };
  } catch (error) {
    throw asNotShared(error);
  }
}
