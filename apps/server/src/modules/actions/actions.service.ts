import { randomUUID } from 'node:crypto';
import {
  ACTION_MESSAGES,
  SAMPLE_ACTION_EVENT,
  type ActionBody,
  type ActionConfig,
  type ActionDraft,
  type ActionSortKey,
  type ActionTestResult,
  type ActionType,
  type CreatedAction,
  type ListActionsResponse,
  type RotatedActionSecret,
  type WebhookConfig,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { takeHits } from '../../plugins/rate-limit';
import { findOrganizationName, insertActivity } from '../organizations/organizations.queries';
import {
  countActions,
  countPipelinesUsing,
  deleteActionRow,
  findActionRow,
  findCourseTitles,
  findUserEmail,
  insertActionRow,
  selectActionListRow,
  selectActionPage,
  updateActionRow,
  type ActionListRow,
} from './actions.queries';
import { literalHostProblem } from './address-guard';
import { executeAction, previewAction, rolesInWords, type ActionTrace } from './execute-action';
import type { ActionsRuntime } from './runtime';
import {
  readStoredConfig,
  sealContext,
  toConfigView,
  type StoredActionConfig,
  type StoredHeader,
  type StoredWebhookConfig,
} from './stored-config';
import { generateWebhookSecret, webhookSecretHint } from './webhook-signature';

/** Tests an organization may run per minute: each one sends a request or an e-mail. */
const TESTS_PER_MINUTE = 30;

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What an action reaches, in a few words, for the list. */
export function actionTarget(config: StoredActionConfig, courseTitles: ReadonlyMap<string, string>): string {
  switch (config.type) {
    case 'webhook':
      return `${config.method} ${config.url}`;
    case 'email': {
      if (config.to.kind === 'learner') return 'The learner';
      if (config.to.kind === 'team') return capitalized(rolesInWords(config.to.roles));
      const [first = '', ...others] = config.to.addresses;
      return others.length === 0 ? first : `${first} and ${others.length} more`;
    }
    case 'broadcast': {
      const course = config.courseId
        ? `“${courseTitles.get(config.courseId) ?? 'a deleted course'}”`
        : 'the event’s course';
      return `${config.mode === 'set' ? 'Sets' : 'Clears'} the broadcast of ${course}`;
    }
    case 'set_variable':
      return `Sets “${config.variableName}” for the learner`;
    case 'notify_team':
      return `Activity feed: ${rolesInWords(config.roles)}`;
  }
}

function broadcastCourseIds(
  rows: readonly { action_type: string; config: Record<string, unknown> }[],
): string[] {
  return rows.flatMap((row) =>
    row.action_type === 'broadcast' && typeof row.config.courseId === 'string' ? [row.config.courseId] : [],
  );
}

function toListItem(
  row: ActionListRow,
  config: StoredActionConfig,
  courseTitles: ReadonlyMap<string, string>,
) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: config.type,
    active: row.active,
    target: actionTarget(config, courseTitles),
    usedByPipelines: Number(row.used_by_pipelines),
    createdByName: row.created_by_name,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

function toBody(row: ActionListRow, courseTitles: ReadonlyMap<string, string>): ActionBody {
  const config = readStoredConfig(row.action_type, row.config);
  return {
    ...toListItem(row, config, courseTitles),
    config: toConfigView(config),
    secretHint: config.type === 'webhook' ? config.secretHint : null,
  };
}

// ---- list and read ------------------------------------------------------------------

export async function listActions(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    type?: ActionType | undefined;
    sort: ActionSortKey;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<ListActionsResponse> {
  const filter = { organizationId: input.organizationId, q: input.q, type: input.type };
  const [rows, total] = await Promise.all([
    selectActionPage(db, {
      ...filter,
      sort: input.sort,
      order: input.order,
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    }),
    countActions(db, filter),
  ]);
  const courseTitles = await findCourseTitles(db, input.organizationId, broadcastCourseIds(rows));
  return {
    items: rows.map((row) => toListItem(row, readStoredConfig(row.action_type, row.config), courseTitles)),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}

export async function getAction(db: Database, organizationId: string, actionId: string): Promise<ActionBody> {
  const row = await selectActionListRow(db, organizationId, actionId);
  if (!row) throw new AppError('NOT_FOUND', ACTION_MESSAGES.notFound);
  return toBody(row, await findCourseTitles(db, organizationId, broadcastCourseIds([row])));
}

// ---- write ------------------------------------------------------------------------------

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, [{ path: `body.config.${path}`, message }]);
}

/**
 * A webhook's settings as stored: the URL checked against the address rules
 * (what can be told without DNS), secret header values sealed (a secret
 * header sent without a value keeps the stored one), and the signing secret
 * kept, or made when there is none yet (returned in clear this once).
 */
function storedWebhook(
  runtime: ActionsRuntime,
  scope: { organizationId: string; actionId: string },
  config: WebhookConfig,
  previous: StoredWebhookConfig | null,
): { config: StoredWebhookConfig; secret: string | null } {
  const hostProblem = literalHostProblem(new URL(config.url), runtime.allowedHosts);
  if (hostProblem) throw invalid('url', hostProblem);
  const headers: StoredHeader[] = config.headers.map((header, index) => {
    if (!header.secret) return { name: header.name, secret: false, value: header.value ?? '' };
    if (header.value !== null) {
      return {
        name: header.name,
        secret: true,
        sealed: runtime.secretBox.seal(
          header.value,
          sealContext(scope.organizationId, scope.actionId, { kind: 'header', name: header.name }),
        ),
      };
    }
    const kept = previous?.headers.find(
      (candidate) => candidate.secret && candidate.name.toLowerCase() === header.name.toLowerCase(),
    );
    if (!kept?.secret)
      throw invalid(`headers.${index}.value`, ACTION_MESSAGES.headerValueRequired(header.name));
    return { name: header.name, secret: true, sealed: kept.sealed };
  });
  const base = {
    type: 'webhook' as const,
    url: config.url,
    method: config.method,
    headers,
    bodyTemplate: config.bodyTemplate,
  };
  if (previous) {
    return {
      config: { ...base, signingSecret: previous.signingSecret, secretHint: previous.secretHint },
      secret: null,
    };
  }
  const secret = generateWebhookSecret();
  return {
    config: {
      ...base,
      signingSecret: runtime.secretBox.seal(
        secret,
        sealContext(scope.organizationId, scope.actionId, { kind: 'signing-secret' }),
      ),
      secretHint: webhookSecretHint(secret),
    },
    secret,
  };
}

async function storedConfigOf(
  db: Database,
  runtime: ActionsRuntime,
  scope: { organizationId: string; actionId: string },
  config: ActionConfig,
  previous: StoredActionConfig | null,
): Promise<{ config: StoredActionConfig; secret: string | null }> {
  if (config.type === 'webhook') {
    return storedWebhook(runtime, scope, config, previous?.type === 'webhook' ? previous : null);
  }
  if (config.type === 'broadcast' && config.courseId) {
    const titles = await findCourseTitles(db, scope.organizationId, [config.courseId]);
    if (!titles.has(config.courseId)) throw invalid('courseId', ACTION_MESSAGES.courseNotFound);
  }
  return { config, secret: null };
}

/** Creates an action; a webhook's signing secret is in the result, this once. */
export async function createAction(
  db: Database,
  runtime: ActionsRuntime,
  input: { organizationId: string; userId: string; draft: ActionDraft },
): Promise<CreatedAction> {
  const actionId = randomUUID();
  const scope = { organizationId: input.organizationId, actionId };
  const { config, secret } = await storedConfigOf(db, runtime, scope, input.draft.config, null);
  await insertActionRow(db, {
    id: actionId,
    organizationId: input.organizationId,
    name: input.draft.name,
    description: input.draft.description,
    actionType: config.type,
    config,
    active: input.draft.active,
    createdBy: input.userId,
  });
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.userId,
    kind: 'action.created',
    subjectType: 'action',
    subjectId: actionId,
    summary: `Action “${input.draft.name}” created`,
    details: { type: config.type },
  });
  return { ...(await getAction(db, input.organizationId, actionId)), secret };
}

/** Replaces an action's name, description, state and settings; its type and signing secret stay. */
export async function updateAction(
  db: Database,
  runtime: ActionsRuntime,
  input: { organizationId: string; userId: string; actionId: string; draft: ActionDraft },
): Promise<ActionBody> {
  const row = await findActionRow(db, input.organizationId, input.actionId);
  if (!row) throw new AppError('NOT_FOUND', ACTION_MESSAGES.notFound);
  if (input.draft.config.type !== row.actionType) throw invalid('type', ACTION_MESSAGES.typeChanged);
  const previous = readStoredConfig(row.actionType, row.config);
  const { config } = await storedConfigOf(
    db,
    runtime,
    { organizationId: input.organizationId, actionId: row.id },
    input.draft.config,
    previous,
  );
  await updateActionRow(db, input.organizationId, row.id, {
    name: input.draft.name,
    description: input.draft.description,
    active: input.draft.active,
    config,
  });
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.userId,
    kind: 'action.updated',
    subjectType: 'action',
    subjectId: row.id,
    summary: `Action “${input.draft.name}” updated`,
    details: { type: config.type },
  });
  return getAction(db, input.organizationId, row.id);
}

/** Deletes an action no pipeline uses (one that is used answers 409 and stays). */
export async function deleteAction(
  db: Database,
  input: { organizationId: string; userId: string; actionId: string },
): Promise<void> {
  const row = await findActionRow(db, input.organizationId, input.actionId);
  if (!row) throw new AppError('NOT_FOUND', ACTION_MESSAGES.notFound);
  const users = await countPipelinesUsing(db, input.organizationId, row.id);
  if (users > 0) throw new AppError('CONFLICT', ACTION_MESSAGES.inUse(users));
  await deleteActionRow(db, input.organizationId, row.id);
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.userId,
    kind: 'action.deleted',
    subjectType: 'action',
    subjectId: row.id,
    summary: `Action “${row.name}” deleted`,
    details: { type: row.actionType },
  });
}

/** A new signing secret for a webhook action, shown this once; the old one stops signing at once. */
export async function rotateActionSecret(
  db: Database,
  runtime: ActionsRuntime,
  input: { organizationId: string; userId: string; actionId: string },
): Promise<RotatedActionSecret> {
  const row = await findActionRow(db, input.organizationId, input.actionId);
  if (!row) throw new AppError('NOT_FOUND', ACTION_MESSAGES.notFound);
  const stored = readStoredConfig(row.actionType, row.config);
  if (stored.type !== 'webhook') throw new AppError('BAD_REQUEST', ACTION_MESSAGES.noSecret);
  const secret = generateWebhookSecret();
  const secretHint = webhookSecretHint(secret);
  const config: StoredWebhookConfig = {
    ...stored,
    signingSecret: runtime.secretBox.seal(
      secret,
      sealContext(input.organizationId, row.id, { kind: 'signing-secret' }),
    ),
    secretHint,
  };
  await updateActionRow(db, input.organizationId, row.id, { config });
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.userId,
    kind: 'action.secret_rotated',
    subjectType: 'action',
    subjectId: row.id,
    summary: `Signing secret of action “${row.name}” rotated`,
    details: { secretHint },
  });
  return { secret, secretHint };
}

// ---- test ---------------------------------------------------------------------------------

const TEST_NOTES = {
  webhook: 'The sample event was sent, signed with this action’s secret.',
  email: (recipient: string) =>
    `Sent to you (${recipient}) only, filled in with the sample event. Quiet hours and the frequency cap do not apply to tests.`,
  preview: 'A preview with the sample event: a test changes nothing. In a pipeline the action runs for real.',
  noSmtp: (recipient: string) =>
    `Nothing was sent. Once SMTP is set up, tests go to you (${recipient}) only.`,
} as const;

/**
 * "Send test": a webhook is sent with the sample event and its answer
 * captured; an e-mail goes to the person testing; the other types show what
 * they would do and change nothing. Limited per organization, since each
 * test reaches another system.
 */
export async function testAction(
  db: Database,
  runtime: ActionsRuntime,
  input: { organizationId: string; userId: string; actionId: string },
): Promise<ActionTestResult> {
  const row = await findActionRow(db, input.organizationId, input.actionId);
  if (!row) throw new AppError('NOT_FOUND', ACTION_MESSAGES.notFound);
  const organizationName = await findOrganizationName(db, input.organizationId);
  const config = readStoredConfig(row.actionType, row.config);
  if (config.type !== 'webhook' && config.type !== 'email') {
    const trace = await previewAction(
      { db, organizationId: input.organizationId, organizationName },
      row,
      SAMPLE_ACTION_EVENT,
    );
    return { ok: true, ...trace, note: TEST_NOTES.preview };
  }
  await takeHits(
    db,
    [{ key: `action-tests:${input.organizationId}`, limit: TESTS_PER_MINUTE, windowMs: 60_000 }],
    'action tests',
  );
  const recipient = (await findUserEmail(db, input.userId)) ?? '';
  const result = await executeAction(
    { db, runtime, organizationId: input.organizationId, organizationName, actorUserId: input.userId },
    row,
    { event: SAMPLE_ACTION_EVENT, test: { recipient } },
  );
  const trace: ActionTrace = result.trace ?? {
    channel: config.type === 'webhook' ? 'http' : 'smtp',
    request: {
      method: config.type === 'webhook' ? config.method : 'SMTP',
      url: config.type === 'webhook' ? config.url : (runtime.smtpDisplay ?? 'SMTP'),
      headers: [],
      body: '',
    },
    response: null,
    durationMs: 0,
    error: result.message,
  };
  return {
    ok: result.status === 'succeeded',
    ...trace,
    error: trace.error ?? (result.status === 'succeeded' ? null : result.message),
    note:
      config.type === 'webhook'
        ? TEST_NOTES.webhook
        : runtime.mailer
          ? TEST_NOTES.email(recipient)
          : TEST_NOTES.noSmtp(recipient),
  };
}
