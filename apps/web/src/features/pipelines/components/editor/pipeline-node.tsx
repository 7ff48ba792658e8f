import { PIPELINE_NODE_LABELS, type PipelineNodeType } from '@courselens/contracts';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { CircleAlert } from 'lucide-react';
import { memo } from 'react';

import { cn } from '@/lib/cn';

import { CATEGORY_TILE, NODE_ICONS, nodeCategory } from './node-visuals';

export type PipelineNodeViewData = {
  title: string;
  summary: string;
  problems: string[];
  /** A run's step status, when the canvas shows a run. */
  status?: string;
};

export type PipelineFlowNode = Node<PipelineNodeViewData, PipelineNodeType>;

const handleClass =
  'size-3! border-2! border-surface! bg-fg-subtle! hover:bg-brand-500! focus-visible:outline-2! focus-visible:outline-focus!';

/**
 * A node on the canvas: its icon and kind, its name and what it does, and
 * its problems. Inputs come in on the left, outputs leave on the right;
 * a branch has two outputs, "yes" and "no".
 */
function PipelineNodeCardBase({ type, data, selected }: NodeProps<PipelineFlowNode>) {
  const Icon = NODE_ICONS[type];
  const category = nodeCategory(type);
  const problemCount = data.problems.length;
  return (
    <div
      className={cn(
        'relative flex w-52 items-start gap-2.5 rounded-xl border bg-surface px-3 py-2.5 text-left shadow-sm',
        'shadow-slate-900/5 transition-colors dark:shadow-black/30',
        problemCount > 0
          ? 'border-rose-400 dark:border-rose-400/70'
          : selected
            ? 'border-brand-500 dark:border-brand-300'
            : 'border-line-strong',
        selected ? 'ring-2 ring-brand-500/40 dark:ring-brand-300/40' : null,
      )}
      title={problemCount > 0 ? data.problems.join('\n') : undefined}
    >
      {category !== 'source' ? (
        <Handle type="target" position={Position.Left} className={handleClass} />
      ) : null}
      <span
        aria-hidden="true"
        className={cn(
          'mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg [&_svg]:size-4',
          CATEGORY_TILE[category],
        )}
      >
        <Icon />
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">
          {PIPELINE_NODE_LABELS[type]}
        </span>
        <span className="truncate text-sm font-semibold text-fg">{data.title}</span>
        <span className="line-clamp-2 text-xs text-fg-muted">{data.summary}</span>
        {problemCount > 0 ? (
          <span className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-rose-700 dark:text-rose-300 [&_svg]:size-3.5">
            <CircleAlert aria-hidden="true" />
            {problemCount === 1 ? '1 problem' : `${problemCount} problems`}
          </span>
        ) : null}
      </span>
      {type === 'branch' ? (
        <>
          <Handle
            type="source"
            id="yes"
            position={Position.Right}
            style={{ top: '32%' }}
            className={cn(handleClass, 'bg-emerald-500!')}
          />
          <span className="pointer-events-none absolute top-[32%] -right-9 -translate-y-1/2 rounded bg-emerald-50 px-1 text-[10px] font-semibold text-emerald-800 dark:bg-emerald-400/15 dark:text-emerald-200">
            Yes
          </span>
          <Handle
            type="source"
            id="no"
            position={Position.Right}
            style={{ top: '72%' }}
            className={cn(handleClass, 'bg-rose-500!')}
          />
          <span className="pointer-events-none absolute top-[72%] -right-8 -translate-y-1/2 rounded bg-rose-50 px-1 text-[10px] font-semibold text-rose-800 dark:bg-rose-400/15 dark:text-rose-200">
            No
          </span>
        </>
      ) : category !== 'action' ? (
        <Handle type="source" position={Position.Right} className={handleClass} />
      ) : null}
    </div>
  );
}

export const PipelineNodeCard = memo(PipelineNodeCardBase);
