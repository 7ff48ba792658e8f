import type { SankeyGraph } from '@courselens/contracts';
import { useMemo } from 'react';
import { ResponsiveContainer, Sankey, Tooltip, type SankeyNodeProps } from 'recharts';

import { ChartFrame, truncateLabel } from '@/components/charts';
import { chartColors, seriesColor, tooltipStyles } from '@/components/charts/chart-theme';

export type PathSankeyProps = {
  title: string;
  description?: string;
  graph: SankeyGraph;
  /** What a flow counts ("runs", "learners"). */
  unit: string;
  emptyText: string;
};

type DrawnNode = { name: string; step: number; fullLabel: string };

const numberFormat = new Intl.NumberFormat('en-US');

/** Each step a column this wide at least, so a deep path scrolls sideways on a phone instead of squeezing. */
const STEP_WIDTH = 150;

function SankeyNodeShape(props: SankeyNodeProps) {
  const { x, y, width, height, payload } = props;
  const node = payload as unknown as DrawnNode & { value: number };
  const isRest = node.name === '…';
  return (
    <g>
      <rect
        x={x}
        y={y}
        width={width}
        height={Math.max(height, 1)}
        rx={2}
        fill={isRest ? chartColors.others : seriesColor(node.step - 1)}
      />
      <text
        x={x + width + 4}
        y={y + height / 2}
        dy="0.35em"
        fontSize={11}
        fill={chartColors.text}
        style={{ paintOrder: 'stroke', stroke: 'var(--cl-surface)', strokeWidth: 3 }}
      >
        {truncateLabel(node.fullLabel, 18)}
      </text>
    </g>
  );
}

/**
 * A Sankey of paths: nodes are "step k: slide s" (or course), so every
 * link goes one step to the right and a slide seen twice is two nodes.
 * recharts' Sankey lays it out; "Show as table" lists every flow drawn.
 */
export function PathSankey({ title, description, graph, unit, emptyText }: PathSankeyProps) {
  const { data, table, summary, steps } = useMemo(() => {
    const index = new Map(graph.nodes.map((node, position) => [node.id, position]));
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    const nodes: DrawnNode[] = graph.nodes.map((node) => ({
      name: node.label,
      step: node.step,
      fullLabel: node.label,
    }));
    const links = graph.links.map((link) => ({
      source: index.get(link.source) ?? 0,
      target: index.get(link.target) ?? 0,
      value: link.value,
    }));
    const label = (id: string) => {
      const node = byId.get(id);
      return node ? `Step ${node.step}: ${node.label}` : id;
    };
    const largest = graph.links[0]
      ? graph.links.reduce((best, link) => (link.value > best.value ? link : best), graph.links[0])
      : null;
    return {
      data: { nodes, links },
      steps: Math.max(1, ...graph.nodes.map((node) => node.step)),
      table: {
        columns: ['From', 'To', capitalizeFirst(unit)],
        rows: graph.links.map((link) => [label(link.source), label(link.target), link.value]),
      },
      summary: largest
        ? `${graph.links.length} flows over ${Math.max(1, ...graph.nodes.map((node) => node.step))} steps; the largest, ${numberFormat.format(largest.value)} ${unit}, from ${label(largest.source)} to ${label(largest.target)}`
        : 'No flows',
    };
  }, [graph, unit]);

  const footnote =
    graph.hiddenLinks > 0
      ? `${numberFormat.format(graph.hiddenLinks)} smaller ${graph.hiddenLinks === 1 ? 'flow' : 'flows'} (${numberFormat.format(graph.hiddenValue)} ${unit}) not drawn.`
      : undefined;

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summary}
      table={table}
      height={380}
      emptyText={emptyText}
      footnote={footnote}
    >
      <div className="h-full overflow-x-auto">
        <div className="h-full" style={{ minWidth: steps * STEP_WIDTH }}>
          <ResponsiveContainer
            width="100%"
            height="100%"
            initialDimension={{ width: steps * STEP_WIDTH, height: 380 }}
          >
            <Sankey
              data={data}
              align="left"
              nodeWidth={10}
              nodePadding={14}
              margin={{ top: 8, right: 120, bottom: 8, left: 4 }}
              link={{ stroke: 'var(--chart-others)', strokeOpacity: 0.35 }}
              node={SankeyNodeShape}
              iterations={32}
            >
              <Tooltip {...tooltipStyles} />
            </Sankey>
          </ResponsiveContainer>
        </div>
      </div>
    </ChartFrame>
  );
}

function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
