import { useCallback, useState } from 'react';
import { Text } from 'recharts';

import { axisTick } from './chart-theme';

export type TickProps = {
  x: number | string;
  y: number | string;
  textAnchor: 'start' | 'middle' | 'end' | 'inherit';
  verticalAnchor: 'start' | 'middle' | 'end';
  payload: { value: unknown };
  fill?: string;
};

/**
 * A tick renderer that shows `short(value)` and keeps the whole label as its
 * hover title, so a label cut with an ellipsis can still be read in full.
 */
export function truncatedTick(short: (label: string) => string, fill?: string) {
  return function renderTick({ x, y, textAnchor, verticalAnchor, payload }: TickProps) {
    const full = String(payload.value);
    return (
      <g data-tick={full}>
        <title>{full}</title>
        <Text
          x={Number(x)}
          y={Number(y)}
          textAnchor={textAnchor}
          verticalAnchor={verticalAnchor}
          fill={fill ?? axisTick.fill}
          fontSize={axisTick.fontSize}
        >
          {short(full)}
        </Text>
      </g>
    );
  };
}

/**
 * The width recharts measured for a chart (through `ResponsiveContainer`'s
 * `onResize`), so ticks and labels can be fewer and shorter on a phone.
 * Starts at `initial` until the first measure.
 */
export function useChartWidth(initial = 320) {
  const [width, setWidth] = useState(initial);
  const onResize = useCallback((next: number) => {
    if (next > 0) setWidth(Math.round(next));
  }, []);
  return { width, onResize };
}
