import { createHash, randomUUID } from 'node:crypto';
import {
  ACTION_MESSAGES,
  ingestionEventSchema,
  renderTemplate,
  renderTemplateValue,
  templateContextOf,
  type ActionEvent,
  type ActionTestResult,
  type BroadcastConfig,
  type EmailConfig,
  type NotifyTeamConfig,
  type QuietHours,
  type SetVariableConfig,
  type TemplateContext,
  type TemplateValue,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { setBroadcast } from '../courses/courses.service';
import { ensureEventPartitions } from '../ingestion/ingestion.queries';
import { writeLearningEvents } from '../ingestion/write-path';
import { insertActivity } from '../organizations/organizations.queries';
import {
  countEmailsSent,
  EMAIL_SENT_KIND,
  findCourseTitles,
  listMemberEmails,
  type ActionRow,
} from './actions.queries';
import {
  deliverWebhook,
  type HeaderPair,
  type WebhookDelivery,
  type WebhookRequest,
} from './deliver-webhook';
import type { ActionsRuntime } from './runtime';
import { SecretUnreadableError } from './secret-box';
import {
  openHeaders,
  readStoredConfig,
  sealContext,
  type StoredActionConfig,
  type StoredWebhookConfig,
} from './stored-config';
import { newWebhookMessageId, webhookSignatureHeaders } from './webhook-signature';

/**
 * Running an action: one entry point, `executeAction(context, action,
 * input)`, for every type. Pipelines call it for each action node they
 * reach; the "send test" button calls it too (a webhook or an e-mail is
 * really sent) or, for the types that change data, `previewAction`.
 */

export type ActionExecutionContext = {
  db: Database;
  runtime: ActionsRuntime;
  organizationId: string;
  organizationName: string | null;
  /** Who runs it: the person testing, or null for a pipeline (a broadcast then credits the action's creator). */
  actorUserId: string | null;
  now?: Date;
};

export type ActionRunInput = {
  event: ActionEvent;
  /**
   * The same on every retry of one delivery: the webhook's `webhook-id`
   * and the idempotency key of the data an action writes.
   */
  deliveryId?: string;
  /** A test run: e-mails go only to `recipient`; quiet hours and the frequency cap do not apply. */
  test?: { recipient: string };
};

/** What was sent and what came back (webhooks and e-mails), as the test panel shows it. */
export type ActionTrace = Omit<ActionTestResult, 'ok' | 'note'>;

/**
 * The result of a run, flat so a pipeline run can store it:
 * - `succeeded`: done;
 * - `failed`: not done; `retryable` says whether trying again may help
 *   (a timeout, a 5xx or 429 answer), `retryAfterSeconds` when the
 *   receiver said when;
 * - `skipped`: nothing to do, by rule (frequency cap, no learner to e-mail);
 * - `deferred`: not now (quiet hours): run it again at `deferredUntil`.
 */
export type ActionOutcome = {
  status: 'succeeded' | 'failed' | 'skipped' | 'deferred';
  message: string;
  retryable: boolean;
  retryAfterSeconds: number | null;
  deferredUntil: Date | null;
  trace: ActionTrace | null;
};

function outcome(
  status: ActionOutcome['status'],
  message: string,
  extra: Partial<Omit<ActionOutcome, 'status' | 'message'>> = {},
): ActionOutcome {
  return {
    status,
    message,
    retryable: false,
    retryAfterSeconds: null,
    deferredUntil: null,
    trace: null,
    ...extra,
  };
}

/** Runs one action for one event. Never throws for a failure of the action itself: the outcome says. */
export async function executeAction(
  context: ActionExecutionContext,
  action: ActionRow,
  input: ActionRunInput,
): Promise<ActionOutcome> {
  const config = readStoredConfig(action.actionType, action.config);
  const values = templateContextOf(input.event, context.organizationName);
  try {
    switch (config.type) {
      case 'webhook':
        return await runWebhook(context, action, config, input, values);
      case 'email':
        return await runEmail(context, action, config, input, values);
      case 'broadcast':
        return await runBroadcast(context, action, config, input, values);
      case 'set_variable':
        return await runSetVariable(context, action, config, input, values);
      case 'notify_team':
        return await runNotifyTeam(context, action, config, input, values);
    }
  } catch (error) {
    if (error instanceof SecretUnreadableError) return outcome('failed', ACTION_MESSAGES.secretUnreadable);
    throw error;
  }
}

// ---- webhook ------------------------------------------------------------------------

/** What a secret header's value looks like wherever a request is shown. */
export const HIDDEN_VALUE = '••••••••';

/**
 * The request a webhook action sends for an event: the body (the event as
 * JSON, or the body template filled in with JSON escaping), the custom
 * headers, a content type, and the Standard Webhooks signature. `shown` is
 * the same list with secret header values hidden.
 */
export function buildWebhookRequest(input: {
  config: Pick<StoredWebhookConfig, 'url' | 'method' | 'bodyTemplate'>;
  headers: readonly { name: string; value: string; secret: boolean }[];
  secret: string;
  event: ActionEvent;
  values: TemplateContext;
  messageId: string;
  now: Date;
}): { request: WebhookRequest; shown: HeaderPair[] } {
  const body = input.config.bodyTemplate
    ? renderTemplate(input.config.bodyTemplate, input.values, 'json')
    : JSON.stringify(input.event);
  const has = (name: string) => input.headers.some((header) => header.name.toLowerCase() === name);
  const extra: { name: string; value: string; secret: boolean }[] = [];
  if (!has('content-type')) {
    extra.push({
      name: 'Content-Type',
      value: isJson(body) ? 'application/json' : 'text/plain; charset=utf-8',
      secret: false,
    });
  }
  if (!has('user-agent')) extra.push({ name: 'User-Agent', value: 'CourseLens-Webhooks/1.0', secret: false });
  const signature = webhookSignatureHeaders({
    secret: input.secret,
    id: input.messageId,
    body,
    now: input.now,
  });
  const all = [
    ...extra,
    ...input.headers,
    ...Object.entries(signature).map(([name, value]) => ({ name, value, secret: false })),
  ];
  return {
    request: {
      url: input.config.url,
      method: input.config.method,
      headers: all.map(({ name, value }) => ({ name, value })),
      body,
    },
    shown: all.map(({ name, value, secret }) => ({ name, value: secret ? HIDDEN_VALUE : value })),
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** What a webhook's answer means for the run. */
export function webhookOutcome(delivery: WebhookDelivery, trace: ActionTrace): ActionOutcome {
  if (!delivery.response) {
    return outcome('failed', delivery.error ?? 'The request failed', {
      retryable: delivery.errorKind !== 'refused',
      trace,
    });
  }
  const { status, statusText, retryAfterSeconds } = delivery.response;
  const answered = `The receiver answered ${status}${statusText ? ` ${statusText}` : ''}`;
  if (status >= 200 && status < 300)
    return outcome('succeeded', `Delivered: ${status} ${statusText}`.trim(), { trace });
  if (status >= 300 && status < 400) {
    return outcome('failed', `${answered}: redirects are not followed, use the final URL`, { trace });
  }
  const isRetryable = status === 408 || status === 425 || status === 429 || status >= 500;
  return outcome('failed', answered, { retryable: isRetryable, retryAfterSeconds, trace });
}

async function runWebhook(
  context: ActionExecutionContext,
  action: ActionRow,
  config: StoredWebhookConfig,
  input: ActionRunInput,
  values: TemplateContext,
): Promise<ActionOutcome> {
  const { runtime, organizationId } = context;
  const secret = runtime.secretBox.open(
    config.signingSecret,
    sealContext(organizationId, action.id, { kind: 'signing-secret' }),
  );
  const headers = openHeaders(runtime.secretBox, organizationId, action.id, config.headers);
  const { request, shown } = buildWebhookRequest({
    config,
    headers,
    secret,
    event: input.event,
    values,
    messageId: input.deliveryId ?? newWebhookMessageId(),
    now: context.now ?? new Date(),
  });
  const delivery = await deliverWebhook(request, {
    allowedHosts: runtime.allowedHosts,
    ...(runtime.lookup ? { lookup: runtime.lookup } : {}),
  });
  const trace: ActionTrace = {
    channel: 'http',
    request: { method: request.method, url: request.url, headers: shown, body: request.body },
    response: delivery.response,
    durationMs: delivery.durationMs,
    error: delivery.error,
  };
  return webhookOutcome(delivery, trace);
}

// ---- e-mail --------------------------------------------------------------------------

/** Minutes since midnight in a time zone. */
function minutesInZone(now: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * When the quiet hours that `now` falls in end, or null outside them.
 * Quiet hours may run over midnight (22:00 to 07:00).
 */
export function quietHoursEnd(now: Date, quiet: QuietHours): Date | null {
  const current = minutesInZone(now, quiet.timeZone);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const isQuiet = start < end ? current >= start && current < end : current >= start || current < end;
  if (!isQuiet) return null;
  const minutesLeft = (end - current + 1440) % 1440;
  const startOfMinute = now.getTime() - (now.getTime() % 60_000);
  return new Date(startOfMinute + minutesLeft * 60_000);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

async function emailRecipients(
  context: ActionExecutionContext,
  config: EmailConfig,
  input: ActionRunInput,
): Promise<string[] | ActionOutcome> {
  if (input.test) return [input.test.recipient];
  switch (config.to.kind) {
    case 'learner': {
      const email = input.event.learner?.email;
      return email ? [email] : outcome('skipped', ACTION_MESSAGES.needsLearner);
    }
    case 'team': {
      const emails = await listMemberEmails(context.db, context.organizationId, config.to.roles);
      return emails.length > 0 ? emails : outcome('skipped', ACTION_MESSAGES.noRecipients);
    }
    case 'addresses':
      return config.to.addresses;
  }
}

function smtpStatus(response: string): number {
  const code = /^\s*(\d{3})\b/.exec(response)?.[1];
  return code ? Number(code) : 250;
}

async function runEmail(
  context: ActionExecutionContext,
  action: ActionRow,
  config: EmailConfig,
  input: ActionRunInput,
  values: TemplateContext,
): Promise<ActionOutcome> {
  const { runtime, db } = context;
  const now = context.now ?? new Date();
  const recipients = await emailRecipients(context, config, input);
  if (!Array.isArray(recipients)) return recipients;
  const learnerEmail = input.event.learner?.email?.toLowerCase() ?? null;
  if (!input.test) {
    const until = config.quietHours ? quietHoursEnd(now, config.quietHours) : null;
    if (until)
      return outcome('deferred', `Quiet hours until ${config.quietHours?.end}`, { deferredUntil: until });
    if (config.frequencyCap && learnerEmail) {
      const since = new Date(now.getTime() - config.frequencyCap.perHours * 3_600_000);
      const sent = await countEmailsSent(db, {
        organizationId: context.organizationId,
        actionId: action.id,
        learnerEmail,
        since,
      });
      if (sent >= config.frequencyCap.count) {
        return outcome(
          'skipped',
          `Frequency cap reached: at most ${config.frequencyCap.count} per learner every ${config.frequencyCap.perHours} hours`,
        );
      }
    }
  }
  const subject = oneLine(renderTemplate(config.subject, values)).slice(0, 998);
  const text = renderTemplate(config.body, values);
  const request: ActionTrace['request'] = {
    method: 'SMTP',
    url: runtime.smtpDisplay ?? 'SMTP (not set up)',
    headers: [
      ...(runtime.from ? [{ name: 'From', value: runtime.from }] : []),
      { name: 'To', value: recipients.join(', ') },
      { name: 'Subject', value: subject },
    ],
    body: text,
  };
  if (!runtime.mailer) {
    return outcome('failed', ACTION_MESSAGES.smtpNotConfigured, {
      trace: {
        channel: 'smtp',
        request,
        response: null,
        durationMs: 0,
        error: ACTION_MESSAGES.smtpNotConfigured,
      },
    });
  }
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  try {
    const sent = await runtime.mailer({ to: recipients, subject, text });
    const trace: ActionTrace = {
      channel: 'smtp',
      request,
      response: {
        status: smtpStatus(sent.response),
        statusText: sent.response,
        headers: [
          { name: 'Message-ID', value: sent.messageId },
          { name: 'Accepted', value: sent.accepted.join(', ') },
          ...(sent.rejected.length > 0 ? [{ name: 'Rejected', value: sent.rejected.join(', ') }] : []),
        ],
        body: '',
        bodyTruncated: false,
        retryAfterSeconds: null,
      },
      durationMs: elapsed(),
      error: null,
    };
    if (!input.test) {
      await insertActivity(db, {
        organizationId: context.organizationId,
        actorUserId: context.actorUserId,
        kind: EMAIL_SENT_KIND,
        subjectType: 'action',
        subjectId: action.id,
        summary: `Email “${action.name}” sent to ${recipients.length} ${recipients.length === 1 ? 'recipient' : 'recipients'}`,
        details: { learnerEmail, recipients: recipients.length, eventType: input.event.type },
      });
    }
    if (sent.accepted.length === 0) {
      return outcome('failed', 'The SMTP server accepted none of the recipients', { trace });
    }
    return outcome('succeeded', `Email sent to ${sent.accepted.length} of ${recipients.length}`, { trace });
  } catch (error) {
    const message = `The SMTP server did not take the e-mail: ${error instanceof Error ? error.message : String(error)}`;
    return outcome('failed', message, {
      retryable: true,
      trace: { channel: 'smtp', request, response: null, durationMs: elapsed(), error: message },
    });
  }
}

// ---- the types that change data ---------------------------------------------------------

function broadcastMessage(config: BroadcastConfig, values: TemplateContext): string | null {
  if (config.mode === 'clear' || config.message === null) return null;
  return renderTemplate(config.message, values).trim().slice(0, 1000);
}

async function runBroadcast(
  context: ActionExecutionContext,
  action: ActionRow,
  config: BroadcastConfig,
  input: ActionRunInput,
  values: TemplateContext,
): Promise<ActionOutcome> {
  const courseId = config.courseId ?? input.event.course?.id ?? null;
  if (!courseId) return outcome('failed', ACTION_MESSAGES.needsCourse);
  const userId = context.actorUserId ?? action.createdBy;
  if (!userId) return outcome('failed', ACTION_MESSAGES.noAuthor);
  const message = broadcastMessage(config, values);
  if (config.mode === 'set' && !message)
    return outcome('failed', 'The broadcast message is empty once filled in');
  try {
    await setBroadcast(context.db, { organizationId: context.organizationId, userId, courseId, message });
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND')
      return outcome('failed', ACTION_MESSAGES.courseNotFound);
    throw error;
  }
  return outcome('succeeded', message === null ? 'Broadcast cleared' : 'Broadcast set');
}

function variableValue(config: SetVariableConfig, values: TemplateContext): TemplateValue {
  return config.value.kind === 'literal'
    ? config.value.value
    : renderTemplateValue(config.value.template, values);
}

/** The idempotency key of the event an action writes: the same for every retry of one delivery. */
function writtenEventId(actionId: string, deliveryId: string | undefined): string {
  if (!deliveryId) return `pipeline:${randomUUID()}`;
  return `pipeline:${createHash('sha256').update(`${actionId}:${deliveryId}`).digest('hex').slice(0, 40)}`;
}

async function runSetVariable(
  context: ActionExecutionContext,
  action: ActionRow,
  config: SetVariableConfig,
  input: ActionRunInput,
  values: TemplateContext,
): Promise<ActionOutcome> {
  const { learner, course } = input.event;
  if (!learner) return outcome('failed', ACTION_MESSAGES.needsLearner);
  if (!course) return outcome('failed', ACTION_MESSAGES.needsCourse);
  const now = context.now ?? new Date();
  const parsed = ingestionEventSchema.safeParse({
    id: writtenEventId(action.id, input.deliveryId),
    type: 'variable.set',
    course: { externalCourseId: course.externalCourseId, title: course.title },
    learner: { email: learner.email, name: learner.name },
    variable: { name: config.variableName, value: variableValue(config, values) },
  });
  if (!parsed.success)
    return outcome('failed', parsed.error.issues[0]?.message ?? ACTION_MESSAGES.variableValueInvalid);
  await ensureEventPartitions(context.db, [now]);
  const written = await context.db.transaction(async (tx) =>
    writeLearningEvents(
      tx as unknown as Database,
      {
        organizationId: context.organizationId,
        source: 'pipeline',
        apiKeyId: null,
        publish: context.runtime.publish,
      },
      [{ index: 0, event: parsed.data, at: now, extras: { actionId: action.id } }],
    ),
  );
  const [rejected] = written.rejected;
  if (rejected) return outcome('failed', rejected.error);
  if (written.duplicates > 0) return outcome('succeeded', 'Already set by an earlier try of this run');
  return outcome('succeeded', `Set “${config.variableName}” for ${learner.email}`);
}

function notification(config: NotifyTeamConfig, action: ActionRow, values: TemplateContext): string {
  return renderTemplate(config.message, values).trim().slice(0, 1000) || action.name;
}

async function runNotifyTeam(
  context: ActionExecutionContext,
  action: ActionRow,
  config: NotifyTeamConfig,
  input: ActionRunInput,
  values: TemplateContext,
): Promise<ActionOutcome> {
  const message = notification(config, action, values);
  await insertActivity(context.db, {
    organizationId: context.organizationId,
    actorUserId: null,
    kind: 'action.notification',
    subjectType: 'action',
    subjectId: action.id,
    summary: message,
    details: {
      actionName: action.name,
      roles: config.roles,
      eventType: input.event.type,
      learnerEmail: input.event.learner?.email ?? null,
    },
  });
  return outcome('succeeded', 'The team was notified in the activity feed');
}

// ---- preview --------------------------------------------------------------------------

const ROLE_WORDS = { owner: 'owners', team_member: 'team members' } as const;

/** Who a role list names, in words ("owners and team members"). */
export function rolesInWords(roles: readonly ('owner' | 'team_member')[]): string {
  return roles.map((role) => ROLE_WORDS[role]).join(' and ');
}

/**
 * What an action that changes data (broadcast, variable, notification)
 * would do for an event, without doing it: the test panel shows this.
 */
export async function previewAction(
  context: Pick<ActionExecutionContext, 'db' | 'organizationId' | 'organizationName'>,
  action: ActionRow,
  event: ActionEvent,
): Promise<ActionTrace> {
  const config: StoredActionConfig = readStoredConfig(action.actionType, action.config);
  const values = templateContextOf(event, context.organizationName);
  const trace = (method: string, url: string, body: string): ActionTrace => ({
    channel: 'preview',
    request: { method, url, headers: [], body },
    response: null,
    durationMs: 0,
    error: null,
  });
  switch (config.type) {
    case 'broadcast': {
      const titles = config.courseId
        ? await findCourseTitles(context.db, context.organizationId, [config.courseId])
        : new Map<string, string>();
      const course = config.courseId
        ? `“${titles.get(config.courseId) ?? 'a deleted course'}”`
        : `the event’s course (${event.course?.title ?? 'none'})`;
      return config.mode === 'clear'
        ? trace('CLEAR', `The broadcast of ${course}`, '')
        : trace('SET', `The broadcast of ${course}`, broadcastMessage(config, values) ?? '');
    }
    case 'set_variable':
      return trace(
        'SET',
        `Variable “${config.variableName}” of ${event.learner?.email ?? 'the learner'} in ${event.course?.title ?? 'the event’s course'}`,
        JSON.stringify(variableValue(config, values)),
      );
    case 'notify_team':
      return trace(
        'POST',
        `The activity feed, for ${rolesInWords(config.roles)}`,
        notification(config, action, values),
      );
    case 'webhook':
    case 'email':
      throw new Error(`a ${config.type} action is tested for real, not previewed`);
  }
}
