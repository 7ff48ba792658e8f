import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { BarChart } from './bar-chart';

const data = [
  { key: '2026-03-01', label: 'Mar 1', fullLabel: 'Sun, Mar 1, 2026', value: 4 },
  { key: '2026-03-02', label: 'Mar 2', fullLabel: 'Mon, Mar 2, 2026', value: 0 },
  { key: '2026-03-03', label: 'Mar 3', fullLabel: 'Tue, Mar 3, 2026', value: 17 },
];

describe('BarChart', () => {
  it('names the chart and gives every figure as a table', () => {
    render(<BarChart title="Course runs per day" data={data} valueLabel="runs" />);
    expect(
      screen.getByRole('img', { name: 'Course runs per day: 3 bars, highest 17 runs' }),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Course runs per day' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Sun, Mar 1, 20264',
      'Mon, Mar 2, 20260',
      'Tue, Mar 3, 202617',
    ]);
  });

  it('draws bars in proportion, a zero bar flat, and round axis ticks', () => {
    const { container } = render(<BarChart title="Runs" data={data} valueLabel="runs" height={220} />);
    const bars = [...container.querySelectorAll('rect.pointer-events-none')];
    const heights = bars.map((bar) => Number(bar.getAttribute('height')));
    expect(heights[1]).toBe(0);
    expect(heights[2]).toBeGreaterThan(heights[0] ?? 0);
    expect((heights[0] ?? 0) / (heights[2] ?? 1)).toBeCloseTo(4 / 17, 5);
    const ticks = [...container.querySelectorAll('text[text-anchor="end"]')].map((tick) => tick.textContent);
    expect(ticks).toEqual(['0', '5', '10', '15', '20']);
  });

  it('shows a bar’s value on hover', () => {
    const { container } = render(<BarChart title="Runs" data={data} valueLabel="runs" />);
    const hitAreas = container.querySelectorAll('rect.fill-transparent');
    fireEvent.mouseEnter(hitAreas[2] as Element);
    const [tooltipDay] = screen
      .getAllByText('Tue, Mar 3, 2026')
      .filter((element) => element.tagName === 'SPAN');
    expect(tooltipDay?.nextElementSibling).toHaveTextContent('17 runs');
    fireEvent.mouseLeave(hitAreas[2] as Element);
    expect(screen.getAllByText('Tue, Mar 3, 2026')).toHaveLength(1);
  });

  it('titles both axes and marks a period still running as "so far"', () => {
    const running = data.map((datum, index) => ({ ...datum, isPartial: index === data.length - 1 }));
    const { container } = render(
      <BarChart
        title="Course runs per day"
        data={running}
        valueLabel="runs"
        valueAxisTitle="Course runs"
        categoryLabel="Day (UTC)"
      />,
    );
    const texts = [...container.querySelectorAll('svg text')].map((text) => text.textContent);
    expect(texts).toContain('Course runs');
    expect(texts).toContain('Day (UTC)');
    expect(screen.getByTestId('partial-note')).toHaveTextContent('Lighter bar: still counting (so far)');
    const partial = container.querySelectorAll('rect[data-partial="true"]');
    expect(partial).toHaveLength(1);
    const table = screen.getByRole('table', { name: 'Course runs per day' });
    expect(within(table).getAllByRole('row').at(-1)?.textContent).toBe('Tue, Mar 3, 2026 (so far)17');
  });

  it('handles an empty period', () => {
    render(<BarChart title="Runs" data={[]} valueLabel="runs" />);
    expect(screen.getByRole('img', { name: 'Runs: 0 bars, highest 0 runs' })).toBeInTheDocument();
  });
});
