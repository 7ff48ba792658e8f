import { CircleAlert, CircleCheck, TriangleAlert } from 'lucide-react';

import { cn } from '@/lib/cn';

import type { EditorProblem } from './graph-model';

export type ProblemsListProps = {
  problems: readonly EditorProblem[];
  /** Selects the node a problem is about (and brings it into view). */
  onShowNode: (nodeId: string) => void;
  /** The graph changed since the server's problems were found. */
  isServerStale?: boolean;
  id?: string;
  className?: string;
};

const GROUPS: { kind: EditorProblem['kind']; title: string }[] = [
  { kind: 'form', title: 'To fill in before saving' },
  { kind: 'graph', title: 'To fix before turning it on' },
  { kind: 'server', title: 'Found at the last save' },
];

/**
 * What is wrong with the pipeline on the editor, updated as it changes:
 * unfinished forms (they stop a save), the graph's rules (they stop turning
 * it on), and what the server found at the last save. A problem about a
 * node selects it.
 */
export function ProblemsList({
  problems,
  onShowNode,
  isServerStale = false,
  id,
  className,
}: ProblemsListProps) {
  const count = problems.length;
  return (
    <section
      id={id}
      aria-labelledby={`${id ?? 'problems'}-title`}
      className={cn('flex flex-col gap-2', className)}
      tabIndex={-1}
    >
      <h3
        id={`${id ?? 'problems'}-title`}
        className="flex items-center gap-2 text-sm font-semibold text-fg [&_svg]:size-4"
      >
        {count === 0 ? (
          <CircleCheck aria-hidden="true" className="text-emerald-600 dark:text-emerald-400" />
        ) : (
          <TriangleAlert aria-hidden="true" className="text-amber-600 dark:text-amber-400" />
        )}
        {count === 0 ? 'No problems' : count === 1 ? '1 problem' : `${count} problems`}
      </h3>
      <div aria-live="polite" className="flex flex-col gap-3">
        {count === 0 ? (
          <p className="text-sm text-fg-muted">The pipeline can be saved and turned on.</p>
        ) : (
          GROUPS.map((group) => {
            const items = problems.filter((problem) => problem.kind === group.kind);
            if (items.length === 0) return null;
            return (
              <div key={group.kind} className="flex flex-col gap-1.5">
                <p className="text-xs font-medium text-fg-subtle">
                  {group.title}
                  {group.kind === 'server' && isServerStale ? ' (the pipeline has changed since)' : null}
                </p>
                <ul className="flex flex-col gap-1">
                  {items.map((problem, index) => (
                    <li key={`${problem.kind}-${index}-${problem.message}`}>
                      {problem.nodeId ? (
                        <button
                          type="button"
                          onClick={() => onShowNode(problem.nodeId!)}
                          className="flex w-full items-start gap-2 rounded-lg px-2 py-1.5 text-left text-sm text-fg hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-focus [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0"
                        >
                          <CircleAlert aria-hidden="true" className="text-rose-600 dark:text-rose-400" />
                          <span className="min-w-0 break-words">
                            {problem.message} <span className="sr-only">(select the node)</span>
                          </span>
                        </button>
                      ) : (
                        <p className="flex items-start gap-2 px-2 py-1.5 text-sm text-fg [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0">
                          <CircleAlert aria-hidden="true" className="text-rose-600 dark:text-rose-400" />
                          <span className="min-w-0 break-words">{problem.message}</span>
                        </p>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            );
          })
        )}
      </div>
    </section>
  );
}
