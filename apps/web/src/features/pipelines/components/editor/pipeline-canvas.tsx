import '@xyflow/react/dist/style.css';

import { PIPELINE_NODE_LABELS, type PipelineNodeType } from '@courselens/contracts';
import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type NodeTypes,
} from '@xyflow/react';
import { useMemo, type CSSProperties, type DragEvent } from 'react';

import { useTheme } from '@/lib/theme';

import {
  displayName,
  nodeSummary,
  nodeTitle,
  type EditorGraph,
  type NodeLookups,
  type XY,
} from './graph-model';
import { PipelineNodeCard, type PipelineFlowNode } from './pipeline-node';

/** The "yes" and "no" ways out of a branch read apart at a glance; other connections take the theme's line colour. */
const WAY_COLOURS: Record<string, string> = {
  yes: '#10b981',
  no: '#f43f5e',
  none: 'var(--cl-fg-subtle)',
};

/**
 * React Flow's colours from the app's theme variables, so the canvas looks
 * like the rest of the page in light and dark mode.
 */
const CANVAS_THEME = {
  '--xy-background-color': 'transparent',
  '--xy-background-pattern-color': 'var(--cl-line-strong)',
  '--xy-edge-stroke': 'var(--cl-fg-subtle)',
  '--xy-connectionline-stroke': 'var(--cl-accent)',
  '--xy-controls-button-background-color': 'var(--cl-surface)',
  '--xy-controls-button-background-color-hover': 'var(--cl-surface-muted)',
  '--xy-controls-button-color': 'var(--cl-fg)',
  '--xy-controls-button-color-hover': 'var(--cl-fg)',
  '--xy-controls-button-border-color': 'var(--cl-line)',
  '--xy-attribution-background-color': 'transparent',
} as CSSProperties;

/** The type a palette item carries while it is dragged onto the canvas. */
export const PALETTE_DRAG_TYPE = 'application/x-courselens-pipeline-node';

const nodeTypes: NodeTypes = {
  course: PipelineNodeCard,
  chatbot: PipelineNodeCard,
  schedule: PipelineNodeCard,
  manual: PipelineNodeCard,
  filter: PipelineNodeCard,
  branch: PipelineNodeCard,
  delay: PipelineNodeCard,
  map_variables: PipelineNodeCard,
  action: PipelineNodeCard,
};

export type Selection = { nodeIds: ReadonlySet<string>; edgeIds: ReadonlySet<string> };

export type PipelineCanvasProps = {
  graph: EditorGraph;
  lookups: NodeLookups;
  problems: ReadonlyMap<string, string[]>;
  selection: Selection;
  /** Phones: look, pan, zoom and open a node's form; no dragging or connecting. */
  isReadMostly: boolean;
  onMove: (positions: Map<string, XY>, isDragging: boolean) => void;
  onSelectionChange: (selection: Selection) => void;
  onConnect: (connection: { source: string; target: string; sourceHandle: string | null }) => void;
  isValidConnection: (connection: { source: string; target: string; sourceHandle: string | null }) => boolean;
  onDropNode: (type: PipelineNodeType, position: XY) => void;
  onNodeOpen: (nodeId: string) => void;
};

const ARIA_LABELS = {
  'node.a11yDescription.default':
    'Press Enter or Space to select a node and open its form. Arrow keys move a selected node, Delete removes it, Escape clears the selection.',
  'node.a11yDescription.keyboardDisabled': 'Press Enter or Space to select a node and open its form.',
  'edge.a11yDescription.default': 'Press Enter or Space to select a connection, then Delete to remove it.',
  'controls.ariaLabel': 'Canvas controls',
  'controls.zoomIn.ariaLabel': 'Zoom in',
  'controls.zoomOut.ariaLabel': 'Zoom out',
  'controls.fitView.ariaLabel': 'Fit the pipeline in view',
  'controls.interactive.ariaLabel': 'Lock or unlock the canvas',
  'handle.ariaLabel': 'Connection point',
};

/**
 * The canvas (@xyflow/react). The editor owns the graph: the canvas draws
 * it and reports what the person does (moves, selections, connections,
 * drops from the palette); the sizes it measures are read from it (auto-layout),
 * for auto-layout.
 */
export function PipelineCanvas({
  graph,
  lookups,
  problems,
  selection,
  isReadMostly,
  onMove,
  onSelectionChange,
  onConnect,
  isValidConnection,
  onDropNode,
  onNodeOpen,
}: PipelineCanvasProps) {
  const { theme } = useTheme();
  const flow = useReactFlow();

  const nodes = useMemo<PipelineFlowNode[]>(
    () =>
      graph.nodes.map((node) => {
        const nodeProblems = problems.get(node.id) ?? [];
        const summary = nodeSummary(node, lookups);
        return {
          id: node.id,
          type: node.type,
          position: node.position,
          data: { title: nodeTitle(node), summary, problems: nodeProblems },
          selected: selection.nodeIds.has(node.id),
          ariaLabel: `${PIPELINE_NODE_LABELS[node.type]}: ${nodeTitle(node)}. ${summary}.${
            nodeProblems.length > 0 ? ` Problems: ${nodeProblems.join('; ')}` : ''
          }`,
        };
      }),
    [graph.nodes, problems, lookups, selection.nodeIds],
  );

  const edges = useMemo<Edge[]>(() => {
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    return graph.edges.map((edge) => {
      const source = byId.get(edge.source);
      const target = byId.get(edge.target);
      const way = edge.sourceHandle ? ` (${edge.sourceHandle})` : '';
      return {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        sourceHandle: edge.sourceHandle,
        selected: selection.edgeIds.has(edge.id),
        markerEnd: {
          type: MarkerType.ArrowClosed,
          width: 18,
          height: 18,
          color: WAY_COLOURS[edge.sourceHandle ?? 'none'],
        },
        // A selected connection is drawn thicker in the accent colour, so Delete's target is plain.
        style: selection.edgeIds.has(edge.id)
          ? { stroke: 'var(--cl-accent)', strokeWidth: 3 }
          : { stroke: WAY_COLOURS[edge.sourceHandle ?? 'none'], strokeWidth: 1.5 },
        ariaLabel: `Connection from ${source ? displayName(source) : edge.source} to ${
          target ? displayName(target) : edge.target
        }${way}`,
      };
    });
  }, [graph.nodes, graph.edges, selection.edgeIds]);

  function handleNodesChange(changes: NodeChange<PipelineFlowNode>[]) {
    const moved = new Map<string, XY>();
    let isDragging = false;
    let selectionChanged = false;
    const nodeIds = new Set(selection.nodeIds);
    for (const change of changes) {
      if (change.type === 'position' && change.position) {
        moved.set(change.id, change.position);
        if (change.dragging) isDragging = true;
      } else if (change.type === 'select') {
        selectionChanged = true;
        if (change.selected) nodeIds.add(change.id);
        else nodeIds.delete(change.id);
      }
    }
    if (moved.size > 0) onMove(moved, isDragging);
    if (selectionChanged) onSelectionChange({ nodeIds, edgeIds: selection.edgeIds });
  }

  function handleEdgesChange(changes: EdgeChange[]) {
    const edgeIds = new Set(selection.edgeIds);
    let changed = false;
    for (const change of changes) {
      if (change.type !== 'select') continue;
      changed = true;
      if (change.selected) edgeIds.add(change.id);
      else edgeIds.delete(change.id);
    }
    if (changed) onSelectionChange({ nodeIds: selection.nodeIds, edgeIds });
  }

  function toConnection(connection: Connection | Edge) {
    return {
      source: connection.source,
      target: connection.target,
      sourceHandle: connection.sourceHandle ?? null,
    };
  }

  function handleDragOver(event: DragEvent) {
    if (!event.dataTransfer.types.includes(PALETTE_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }

  function handleDrop(event: DragEvent) {
    const type = event.dataTransfer.getData(PALETTE_DRAG_TYPE) as PipelineNodeType;
    if (!type || !(type in PIPELINE_NODE_LABELS)) return;
    event.preventDefault();
    const position = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    // The pointer holds the node by its middle.
    onDropNode(type, { x: Math.round(position.x - 104), y: Math.round(position.y - 38) });
  }

  return (
    <div className="pipeline-canvas size-full" onDragOver={handleDragOver} onDrop={handleDrop}>
      <ReactFlow<PipelineFlowNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={handleNodesChange}
        onEdgesChange={handleEdgesChange}
        onConnect={(connection) => onConnect(toConnection(connection))}
        isValidConnection={(connection) => isValidConnection(toConnection(connection))}
        onNodeClick={(_, node) => onNodeOpen(node.id)}
        // The editor removes the selection itself, nodes with their connections, as one undo step.
        deleteKeyCode={null}
        nodesDraggable={!isReadMostly}
        nodesConnectable={!isReadMostly}
        nodesFocusable
        edgesFocusable
        colorMode={theme}
        fitView
        fitViewOptions={{ maxZoom: 1, minZoom: 0.5, padding: 0.12 }}
        style={CANVAS_THEME}
        minZoom={0.2}
        maxZoom={1.75}
        ariaLabelConfig={ARIA_LABELS}
        proOptions={{ hideAttribution: false }}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
