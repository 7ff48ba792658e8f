import {
  PIPELINE_END_TYPES,
  PIPELINE_NODE_DESCRIPTIONS,
  PIPELINE_NODE_LABELS,
  PIPELINE_SOURCE_TYPES,
  PIPELINE_STEP_TYPES,
  type PipelineNodeType,
} from '@courselens/contracts';
import type { DragEvent } from 'react';

import { cn } from '@/lib/cn';

import { PALETTE_DRAG_TYPE } from './pipeline-canvas';
import { CATEGORY_TILE, NODE_ICONS, nodeCategory } from './node-visuals';

const GROUPS: { title: string; types: readonly PipelineNodeType[] }[] = [
  { title: 'Sources', types: PIPELINE_SOURCE_TYPES },
  { title: 'Steps', types: PIPELINE_STEP_TYPES },
  { title: 'Ends', types: PIPELINE_END_TYPES },
];

export type NodePaletteProps = {
  onAdd: (type: PipelineNodeType) => void;
  /** What a click does, said on every button ("Add after Course events"). */
  addHint: string | null;
  isDraggable: boolean;
  /** Names only (the descriptions are each button's tooltip and description): the narrow column of a wide screen. */
  isCompact?: boolean;
  className?: string;
};

/**
 * The node types to add: a click (or Enter) adds one, placed after the
 * selected node and connected to it when it can be; on a wide screen a
 * type can also be dragged onto the canvas.
 */
export function NodePalette({ onAdd, addHint, isDraggable, isCompact = false, className }: NodePaletteProps) {
  function handleDragStart(event: DragEvent, type: PipelineNodeType) {
    event.dataTransfer.setData(PALETTE_DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = 'copy';
  }
  return (
    <nav aria-label="Add a node" className={cn('flex flex-col gap-4', className)}>
      {GROUPS.map((group) => (
        <section key={group.title} className="flex flex-col gap-1.5">
          <h3 className="px-1 text-xs font-semibold tracking-wide text-fg-subtle uppercase">{group.title}</h3>
          <ul className="flex flex-col gap-1">
            {group.types.map((type) => {
              const Icon = NODE_ICONS[type];
              return (
                <li key={type}>
                  <button
                    type="button"
                    draggable={isDraggable}
                    onDragStart={(event) => handleDragStart(event, type)}
                    onClick={() => onAdd(type)}
                    aria-label={`Add ${PIPELINE_NODE_LABELS[type]}`}
                    aria-describedby={`palette-${type}-hint`}
                    title={PIPELINE_NODE_DESCRIPTIONS[type]}
                    className={cn(
                      'flex w-full items-center gap-2.5 rounded-lg border border-transparent px-2 py-1.5 text-left transition-colors',
                      'hover:border-line hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-focus',
                      isDraggable ? 'cursor-grab active:cursor-grabbing' : null,
                    )}
                  >
                    <span
                      aria-hidden="true"
                      className={cn(
                        'flex size-7 shrink-0 items-center justify-center rounded-md [&_svg]:size-3.5',
                        CATEGORY_TILE[nodeCategory(type)],
                      )}
                    >
                      <Icon />
                    </span>
                    <span className="flex min-w-0 flex-col">
                      <span className="text-sm font-medium text-fg">{PIPELINE_NODE_LABELS[type]}</span>
                      <span
                        id={`palette-${type}-hint`}
                        className={cn('text-xs text-fg-muted', isCompact ? 'sr-only' : null)}
                      >
                        {PIPELINE_NODE_DESCRIPTIONS[type]}
                        {addHint ? ` ${addHint}` : null}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </nav>
  );
}
