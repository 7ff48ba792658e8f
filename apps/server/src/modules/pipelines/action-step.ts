import { createHash, randomUUID } from 'node:crypto';
import {
  PIPELINE_MESSAGES,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  renderTemplate,
  templateContextOf,
  type ActionEvent,
  type PipelineNode,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { findActionRow, updateActionRow, type ActionRow } from '../actions/actions.queries';
import {
  buildWebhookRequest,
  executeAction,
  previewAction,
  rolesInWords,
  type ActionOutcome,
} from '../actions/execute-action';
import type { ActionsRuntime } from '../actions/runtime';
import { SecretUnreadableError } from '../actions/secret-box';
import { openHeaders, readStoredConfig, sealContext } from '../actions/stored-config';
import type { NodeResult, StepRecord } from './run-engine';

/** The longest wait a receiver's `Retry-After` can ask for; beyond it, the schedule's own wait. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

export type ActionStepContext = {
  db: Database;
  runtime: ActionsRuntime;
  organizationId: string;
  organizationName: string | null;
  now: () => Date;
  /** The organization's actions read once for a batch of runs (absent: each is read when reached). */
  actions?: Map<string, ActionRow>;
};

/**
 * The webhook-id (and idempotency key) of one action node in one run: the
 * same on every attempt, so a receiver that saw an attempt whose answer got
 * lost (a crash between its reply and our record) can tell it is the same
 * message (Standard Webhooks' deduplication).
 */
export function deliveryIdOf(runId: string, nodeId: string): string {
  return `msg_${createHash('sha256').update(`${runId}:${nodeId}`).digest('base64url').slice(0, 27)}`;
}

function actionInput(action: ActionRow, event: ActionEvent) {
  return { actionId: action.id, actionName: action.name, actionType: action.actionType, eventId: event.id };
}

async function loadAction(
  context: ActionStepContext,
  node: Extract<PipelineNode, { type: 'action' }>,
): Promise<ActionRow | NodeResult> {
  const action = context.actions
    ? context.actions.get(node.data.actionId)
    : await findActionRow(context.db, context.organizationId, node.data.actionId);
  if (!action) {
    return {
      status: 'failed',
      error: PIPELINE_MESSAGES.unknownAction(node.data.label ?? `Action ${node.id}`),
    };
  }
  if (!action.active) {
    return {
      status: 'failed',
      input: { actionId: action.id, actionName: action.name, actionType: action.actionType },
      error: PIPELINE_MESSAGES.actionOff(action.name),
    };
  }
  return action;
}

/**
 * A live run's action node: the action runs; a failure that may pass
 * (a timeout, a 5xx or 429 answer, an SMTP error) waits for the next time
 * of the Standard Webhooks schedule (or the receiver's `Retry-After` when
 * longer) and the step is tried again then, with the same delivery id; a
 * 410 turns the action off; quiet hours make the step wait for their end.
 */
export async function runLiveAction(
  context: ActionStepContext,
  node: Extract<PipelineNode, { type: 'action' }>,
  previous: StepRecord | undefined,
  input: { runId: string; event: ActionEvent },
): Promise<NodeResult> {
  const loaded = await loadAction(context, node);
  if (!('actionType' in loaded)) return loaded;
  const action = loaded;
  const wasDeferred = (previous?.output as { deferred?: boolean } | null)?.deferred === true;
  const attempts = previous ? (wasDeferred ? previous.attempts : previous.attempts + 1) : 1;
  const outcome = await executeAction(
    {
      db: context.db,
      runtime: context.runtime,
      organizationId: context.organizationId,
      organizationName: context.organizationName,
      actorUserId: null,
      now: context.now(),
    },
    action,
    { event: input.event, deliveryId: deliveryIdOf(input.runId, node.id) },
  );
  const base = { input: actionInput(action, input.event), attempts };
  const output = { outcome: outcome.message, trace: outcome.trace };
  const durationMs = outcome.trace?.durationMs ?? null;
  switch (outcome.status) {
    case 'succeeded':
      return { ...base, status: 'succeeded', output, durationMs };
    case 'skipped':
      return { ...base, status: 'skipped', output, durationMs };
    case 'deferred':
      return {
        ...base,
        status: 'waiting',
        output: { ...output, deferred: true },
        resumeAt: outcome.deferredUntil ?? new Date(context.now().getTime() + 60_000),
      };
    case 'failed':
      return failedAction(context, action, outcome, { ...base, output, durationMs });
  }
}

async function failedAction(
  context: ActionStepContext,
  action: ActionRow,
  outcome: ActionOutcome,
  base: { input: unknown; attempts: number; output: unknown; durationMs: number | null },
): Promise<NodeResult> {
  if (outcome.trace?.channel === 'http' && outcome.trace.response?.status === 410) {
    // Gone: the receiver says it will never want these again (Standard Webhooks).
    await updateActionRow(context.db, context.organizationId, action.id, { active: false });
    // The other runs of the batch see it off too.
    context.actions?.set(action.id, { ...action, active: false });
    return { ...base, status: 'failed', error: PIPELINE_MESSAGES.actionGone(action.name) };
  }
  const waitSeconds = WEBHOOK_RETRY_SCHEDULE_SECONDS[base.attempts - 1];
  if (outcome.retryable && waitSeconds !== undefined) {
    const asked = Math.min(outcome.retryAfterSeconds ?? 0, MAX_RETRY_AFTER_SECONDS);
    const resumeAt = new Date(context.now().getTime() + Math.max(waitSeconds, asked) * 1000);
    return {
      ...base,
      status: 'waiting',
      error: outcome.message,
      output: {
        ...(base.output as object),
        retry: { attempt: base.attempts + 1, at: resumeAt.toISOString() },
      },
      resumeAt,
    };
  }
  const error =
    base.attempts > 1 ? PIPELINE_MESSAGES.retriesUsedUp(base.attempts, outcome.message) : outcome.message;
  return { ...base, status: 'failed', error };
}

/**
 * A test run that really runs its actions (`execute: true`): each runs once
 * with a delivery id of its own; nothing waits for a retry.
 */
export async function runTestAction(
  context: ActionStepContext,
  node: Extract<PipelineNode, { type: 'action' }>,
  event: ActionEvent,
): Promise<NodeResult> {
  const loaded = await loadAction(context, node);
  if (!('actionType' in loaded)) return loaded;
  const outcome = await executeAction(
    {
      db: context.db,
      runtime: context.runtime,
      organizationId: context.organizationId,
      organizationName: context.organizationName,
      actorUserId: null,
      now: context.now(),
    },
    loaded,
    { event, deliveryId: `msg_test_${randomUUID().replaceAll('-', '')}` },
  );
  const status = outcome.status === 'deferred' ? 'skipped' : outcome.status;
  return {
    status,
    input: actionInput(loaded, event),
    output: { outcome: outcome.message, trace: outcome.trace },
    error: status === 'failed' ? outcome.message : null,
    durationMs: outcome.trace?.durationMs ?? null,
  };
}

/** What an action would do for an event, said in a few words (dry runs sum these up). */
export type ActionPreview = {
  actionId: string;
  actionName: string;
  actionType: string;
  /** For summaries: the variable a set_variable action sets, who an e-mail goes to. */
  detail: string | null;
};

/**
 * A dry step: nothing runs; the output is what would have been sent (the
 * signed request of a webhook, the e-mail, or what a change would be).
 */
export async function previewActionStep(
  context: ActionStepContext,
  node: Extract<PipelineNode, { type: 'action' }>,
  event: ActionEvent,
): Promise<NodeResult & { preview?: ActionPreview }> {
  const loaded = await loadAction(context, node);
  if (!('actionType' in loaded)) return loaded;
  const action = loaded;
  const input = actionInput(action, event);
  const preview: ActionPreview = {
    actionId: action.id,
    actionName: action.name,
    actionType: action.actionType,
    detail: null,
  };
  try {
    const config = readStoredConfig(action.actionType, action.config);
    const values = templateContextOf(event, context.organizationName);
    let wouldSend: unknown;
    switch (config.type) {
      case 'webhook': {
        const secret = context.runtime.secretBox.open(
          config.signingSecret,
          sealContext(context.organizationId, action.id, { kind: 'signing-secret' }),
        );
        const headers = openHeaders(
          context.runtime.secretBox,
          context.organizationId,
          action.id,
          config.headers,
        );
        const { request, shown } = buildWebhookRequest({
          config,
          headers,
          secret,
          event,
          values,
          messageId: 'msg_dry_run',
          now: context.now(),
        });
        wouldSend = { method: request.method, url: request.url, headers: shown, body: request.body };
        break;
      }
      case 'email': {
        const to =
          config.to.kind === 'learner'
            ? (event.learner?.email ?? null)
            : config.to.kind === 'team'
              ? `The ${rolesInWords(config.to.roles)}`
              : config.to.addresses.join(', ');
        preview.detail = config.to.kind;
        wouldSend = {
          to,
          subject: renderTemplate(config.subject, values),
          body: renderTemplate(config.body, values),
        };
        break;
      }
      default: {
        if (config.type === 'set_variable') preview.detail = config.variableName;
        if (config.type === 'broadcast') preview.detail = config.mode;
        const trace = await previewAction(context, action, event);
        wouldSend = { method: trace.request.method, url: trace.request.url, body: trace.request.body };
        break;
      }
    }
    return {
      status: 'skipped',
      input,
      output: { dryRun: true, note: 'Not sent: a test run runs no action', wouldSend },
      preview,
    };
  } catch (error) {
    if (error instanceof SecretUnreadableError) {
      return { status: 'failed', input, error: 'The stored secrets of this action cannot be read' };
    }
    throw error;
  }
}
