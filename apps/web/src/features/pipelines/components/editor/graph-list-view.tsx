import {
  BRANCH_HANDLES,
  PIPELINE_NODE_LABELS,
  PIPELINE_NODE_TYPES,
  type BranchHandle,
  type PipelineNodeType,
} from '@courselens/contracts';
import { ArrowRight, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

import {
  canHaveInputs,
  canHaveOutputs,
  connectionProblem,
  displayName,
  nodeSummary,
  type EditorGraph,
  type NewConnection,
  type NodeLookups,
} from './graph-model';

export type GraphListViewProps = {
  graph: EditorGraph;
  lookups: NodeLookups;
  problems: ReadonlyMap<string, string[]>;
  selectedNodeId: string | null;
  isReadOnly: boolean;
  onAddNode: (type: PipelineNodeType) => void;
  onEditNode: (nodeId: string) => void;
  onRemoveNode: (nodeId: string) => void;
  onConnect: (connection: NewConnection) => void;
  onRemoveEdge: (edgeId: string) => void;
};

/**
 * The graph as lists, the text alternative of the canvas: every node with
 * what it does and its problems, every connection, and forms to add and
 * remove both. Everything the canvas does can be done here with a keyboard
 * and a screen reader.
 */
export function GraphListView({
  graph,
  lookups,
  problems,
  selectedNodeId,
  isReadOnly,
  onAddNode,
  onEditNode,
  onRemoveNode,
  onConnect,
  onRemoveEdge,
}: GraphListViewProps) {
  const [newType, setNewType] = useState<PipelineNodeType>('course');
  const [from, setFrom] = useState('');
  const [way, setWay] = useState<BranchHandle>('yes');
  const [to, setTo] = useState('');
  const [connectError, setConnectError] = useState<string | null>(null);
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const fromNode = byId.get(from);

  function handleConnect() {
    if (!from || !to) {
      setConnectError('Choose the node the connection leaves and the node it leads to');
      return;
    }
    const connection = { source: from, target: to, sourceHandle: fromNode?.type === 'branch' ? way : null };
    const problem = connectionProblem(graph, connection);
    if (problem) {
      setConnectError(problem);
      return;
    }
    setConnectError(null);
    onConnect(connection);
    setTo('');
  }

  return (
    <div className="flex min-w-0 flex-col gap-6 p-4">
      <section aria-labelledby="list-view-nodes" className="flex flex-col gap-3">
        <h3 id="list-view-nodes" className="text-sm font-semibold text-fg">
          Nodes ({graph.nodes.length})
        </h3>
        {graph.nodes.length === 0 ? (
          <p className="text-sm text-fg-muted">No node yet: add a source, then the steps and an action.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {graph.nodes.map((node) => {
              const nodeProblems = problems.get(node.id) ?? [];
              return (
                <li
                  key={node.id}
                  className={cn(
                    'flex flex-col gap-2 rounded-xl border bg-surface p-3 sm:flex-row sm:items-start sm:justify-between',
                    node.id === selectedNodeId ? 'border-brand-500 dark:border-brand-300' : 'border-line',
                  )}
                >
                  <div className="min-w-0">
                    <p className="font-medium break-words text-fg">
                      {displayName(node)}{' '}
                      <span className="text-xs font-normal text-fg-subtle">
                        {PIPELINE_NODE_LABELS[node.type]}
                      </span>
                    </p>
                    <p className="text-sm break-words text-fg-muted">{nodeSummary(node, lookups)}</p>
                    {nodeProblems.length > 0 ? (
                      <ul className="mt-1 list-disc pl-5 text-sm text-rose-700 dark:text-rose-300">
                        {nodeProblems.map((problem) => (
                          <li key={problem}>{problem}</li>
                        ))}
                      </ul>
                    ) : null}
                  </div>
                  <div className="flex shrink-0 gap-1">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => onEditNode(node.id)}
                      aria-label={`Edit ${displayName(node)}`}
                    >
                      <Pencil aria-hidden="true" />
                      Edit
                    </Button>
                    {isReadOnly ? null : (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => onRemoveNode(node.id)}
                        aria-label={`Remove ${displayName(node)}`}
                      >
                        <Trash2 aria-hidden="true" />
                        Remove
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {isReadOnly ? null : (
          <form
            className="flex flex-col gap-2 sm:flex-row sm:items-end"
            onSubmit={(event) => {
              event.preventDefault();
              onAddNode(newType);
            }}
          >
            <label className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm font-medium text-fg">
              Node to add
              <select
                value={newType}
                onChange={(event) => setNewType(event.target.value as PipelineNodeType)}
                className={inputClassName}
              >
                {PIPELINE_NODE_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {PIPELINE_NODE_LABELS[type]}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="outline">
              <Plus aria-hidden="true" />
              Add node
            </Button>
          </form>
        )}
      </section>

      <section aria-labelledby="list-view-edges" className="flex flex-col gap-3">
        <h3 id="list-view-edges" className="text-sm font-semibold text-fg">
          Connections ({graph.edges.length})
        </h3>
        {graph.edges.length === 0 ? (
          <p className="text-sm text-fg-muted">No connection yet.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {graph.edges.map((edge) => {
              const source = byId.get(edge.source);
              const target = byId.get(edge.target);
              const text = `${source ? displayName(source) : edge.source}${edge.sourceHandle ? ` (${edge.sourceHandle})` : ''} to ${
                target ? displayName(target) : edge.target
              }`;
              return (
                <li
                  key={edge.id}
                  className="flex items-center justify-between gap-2 rounded-xl border border-line bg-surface px-3 py-2"
                >
                  <span className="flex min-w-0 flex-wrap items-center gap-1.5 text-sm text-fg [&_svg]:size-3.5">
                    <span className="break-words">{source ? displayName(source) : edge.source}</span>
                    {edge.sourceHandle ? (
                      <span className="text-xs font-medium text-fg-subtle">({edge.sourceHandle})</span>
                    ) : null}
                    <ArrowRight aria-label="to" />
                    <span className="break-words">{target ? displayName(target) : edge.target}</span>
                  </span>
                  {isReadOnly ? null : (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => onRemoveEdge(edge.id)}
                      aria-label={`Remove the connection ${text}`}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {isReadOnly || graph.nodes.length < 2 ? null : (
          <form
            className="flex flex-col gap-2 rounded-xl border border-dashed border-line-strong p-3"
            onSubmit={(event) => {
              event.preventDefault();
              handleConnect();
            }}
            aria-labelledby="list-view-connect"
          >
            <p id="list-view-connect" className="text-sm font-medium text-fg">
              Add a connection
            </p>
            <div className="grid gap-2 sm:grid-cols-2">
              <label className="flex flex-col gap-1.5 text-sm text-fg">
                From
                <select
                  value={from}
                  onChange={(event) => setFrom(event.target.value)}
                  className={inputClassName}
                >
                  <option value="">Choose a node</option>
                  {graph.nodes
                    .filter((node) => canHaveOutputs(node.type))
                    .map((node) => (
                      <option key={node.id} value={node.id}>
                        {displayName(node)}
                      </option>
                    ))}
                </select>
              </label>
              <label className="flex flex-col gap-1.5 text-sm text-fg">
                To
                <select value={to} onChange={(event) => setTo(event.target.value)} className={inputClassName}>
                  <option value="">Choose a node</option>
                  {graph.nodes
                    .filter((node) => canHaveInputs(node.type) && node.id !== from)
                    .map((node) => (
                      <option key={node.id} value={node.id}>
                        {displayName(node)}
                      </option>
                    ))}
                </select>
              </label>
            </div>
            {fromNode?.type === 'branch' ? (
              <fieldset className="flex flex-wrap items-center gap-4 text-sm text-fg">
                <legend className="sr-only">Way out of the branch</legend>
                {BRANCH_HANDLES.map((handle) => (
                  <label key={handle} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="list-view-way"
                      checked={way === handle}
                      onChange={() => setWay(handle)}
                      className="size-4 accent-brand-600"
                    />
                    {handle === 'yes' ? 'When the conditions hold (yes)' : 'When they do not (no)'}
                  </label>
                ))}
              </fieldset>
            ) : null}
            {connectError ? (
              <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
                {connectError}
              </p>
            ) : null}
            <Button type="submit" variant="outline" className="self-start">
              <Plus aria-hidden="true" />
              Connect
            </Button>
          </form>
        )}
      </section>
    </div>
  );
}
