import {
  PIPELINE_MESSAGES,
  type PipelineRunStatus,
  type PipelineStatus,
  type PipelineStepStatus,
  type PipelineTriggerKind,
} from '@courselens/contracts';

import { Badge, type BadgeVariant } from '@/components/ui/badge';

type StatusLook = { label: string; variant: BadgeVariant; reason: string; isLive?: boolean };

export const PIPELINE_STATUS_LOOKS: Record<PipelineStatus, StatusLook> = {
  active: {
    label: 'Active',
    variant: 'success',
    reason: 'On: every event its sources react to starts a run.',
  },
  inactive: { label: 'Off', variant: 'neutral', reason: `${PIPELINE_MESSAGES.inactiveSource}.` },
  failing: {
    label: 'Failing',
    variant: 'danger',
    reason: 'On, but its latest runs failed: open its runs to see why.',
  },
  invalid: {
    label: 'Cannot run',
    variant: 'warning',
    reason: 'Its graph has problems to fix before it can be turned on: open it to see them.',
  },
};

export type PipelineStatusBadgeProps = { status: PipelineStatus; describedBy?: string };

/** The pipeline's state, its reason on hover (and spelled out beside it where there is no hover). */
export function PipelineStatusBadge({ status, describedBy }: PipelineStatusBadgeProps) {
  const look = PIPELINE_STATUS_LOOKS[status];
  return (
    <Badge
      variant={look.variant}
      dot={status === 'active' ? 'pulse' : true}
      title={look.reason}
      aria-describedby={describedBy}
    >
      {look.label}
    </Badge>
  );
}

export const RUN_STATUS_LOOKS: Record<PipelineRunStatus, { label: string; variant: BadgeVariant }> = {
  queued: { label: 'Queued', variant: 'neutral' },
  running: { label: 'Running', variant: 'brand' },
  waiting: { label: 'Waiting', variant: 'warning' },
  succeeded: { label: 'Succeeded', variant: 'success' },
  failed: { label: 'Failed', variant: 'danger' },
  skipped: { label: 'Skipped', variant: 'neutral' },
};

export function RunStatusBadge({ status }: { status: PipelineRunStatus | PipelineStepStatus }) {
  // A status added on the server later still shows, by its name.
  const look = RUN_STATUS_LOOKS[status] ?? { label: status, variant: 'neutral' };
  return (
    <Badge variant={look.variant} dot={status === 'running' ? 'pulse' : true}>
      {look.label}
    </Badge>
  );
}

export const TRIGGER_LABELS: Record<PipelineTriggerKind, string> = {
  event: 'Event',
  schedule: 'Schedule',
  manual: 'By hand',
  test: 'Test run',
  retry: 'Retry',
};

/** "120 ms", "3.4 s", "2 min 5 s". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}
