import dagre, { type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';

import { DEFAULT_NODE_SIZE, moveNodes, type EditorGraph, type XY } from './graph-model';

export type NodeSizes = ReadonlyMap<string, { width: number; height: number }>;

/**
 * Lays the graph out from left to right (sources on the left, actions on
 * the right) with dagre, using each node's measured size when the canvas
 * has one. Returns the graph with new positions (top-left corners, as the
 * canvas places nodes).
 */
export function autoLayout<G extends EditorGraph>(graph: G, sizes: NodeSizes = new Map()): G {
  if (graph.nodes.length === 0) return graph;
  const layout = new dagre.graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>();
  layout.setGraph({ rankdir: 'LR', nodesep: 32, ranksep: 72, marginx: 0, marginy: 0 });
  layout.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) {
    const size = sizes.get(node.id) ?? DEFAULT_NODE_SIZE;
    layout.setNode(node.id, { width: size.width, height: size.height });
  }
  for (const edge of graph.edges) {
    if (layout.hasNode(edge.source) && layout.hasNode(edge.target)) layout.setEdge(edge.source, edge.target);
  }
  dagre.layout(layout);
  const positions = new Map<string, XY>();
  for (const node of graph.nodes) {
    const placed = layout.node(node.id);
    const size = sizes.get(node.id) ?? DEFAULT_NODE_SIZE;
    if (placed?.x === undefined || placed.y === undefined) continue;
    positions.set(node.id, {
      x: Math.round(placed.x - size.width / 2),
      y: Math.round(placed.y - size.height / 2),
    });
  }
  return moveNodes(graph, positions);
}
