import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { CategoryBarChart } from './category-bar-chart';
import { HistogramChart } from './histogram-chart';
import { ShareDonutChart } from './share-donut-chart';
import { TrendLineChart } from './trend-line-chart';

function rowsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th,td')].map((cell) => cell.textContent ?? ''));
}

describe('CategoryBarChart', () => {
  const data = [
    { label: 'A', value: 3 },
    { label: 'B', value: 12 },
    { label: 'C', value: 1 },
  ];

  it('names the drawing with a summary that includes the highlighted bar', () => {
    render(
      <CategoryBarChart
        title="Answers"
        data={data}
        valueLabel="responses"
        categoryLabel="Answer"
        highlight="C"
        highlightLabel="correct answer"
      />,
    );
    expect(
      screen.getByRole('img', {
        name: 'Answers: 3 bars, highest B with 12 responses, correct answer C with 1',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the same figures as a table on demand, and back', () => {
    render(
      <CategoryBarChart
        title="Answers"
        data={data}
        valueLabel="responses"
        categoryLabel="Answer"
        highlight="C"
        highlightLabel="correct answer"
        orientation="horizontal"
      />,
    );
    const toggle = screen.getByRole('button', { name: 'Show as table' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(toggle);
    const table = screen.getByRole('table', { name: 'Answers' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Answer', 'responses']);
    expect(rowsOf(table)).toEqual([
      ['A', '3'],
      ['B', '12'],
      ['C (correct answer)', '1'],
    ]);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show as chart' }));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('img')).toBeInTheDocument();
  });

  it('says so when there is nothing to chart and offers no table', () => {
    render(<CategoryBarChart title="Answers" data={[]} valueLabel="responses" emptyText="No answers yet." />);
    expect(screen.getByText('No answers yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show as table' })).not.toBeInTheDocument();
  });
});

describe('HistogramChart', () => {
  it('labels bins by range and summarizes the peak', () => {
    render(
      <HistogramChart
        title="Distribution"
        bins={[
          { from: 0, to: 10, count: 2 },
          { from: 10, to: 20, count: 5 },
          { from: 20, to: 30, count: 1 },
        ]}
      />,
    );
    expect(
      screen.getByRole('img', {
        name: 'Distribution: 8 learners in 3 bins from 0 to 30, most in 10–20 (5)',
      }),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    expect(rowsOf(screen.getByRole('table'))).toEqual([
      ['0–10', '2'],
      ['10–20', '5'],
      ['20–30', '1'],
    ]);
  });
});

describe('TrendLineChart', () => {
  it('lists every date with each series, a missing value as a dash', () => {
    render(
      <TrendLineChart
        title="Over time"
        dateLabel="Day"
        data={[
          { date: '2026-03-01', count: 2, mean: 7.5 },
          { date: '2026-03-02', count: 0, mean: null },
          { date: '2026-03-03', count: 4, mean: 9 },
        ]}
        series={[
          { key: 'count', label: 'Values' },
          { key: 'mean', label: 'Mean', axis: 'right' },
        ]}
      />,
    );
    expect(
      screen.getByRole('img', {
        name: 'Over time: 3 points from Mar 1 to Mar 3; Values from 2 to 4, highest 4; Mean from 7.5 to 9, highest 9',
      }),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    const table = screen.getByRole('table', { name: 'Over time' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day', 'Values', 'Mean']);
    expect(rowsOf(table)).toEqual([
      ['Mar 1', '2', '7.5'],
      ['Mar 2', '0', '—'],
      ['Mar 3', '4', '9'],
    ]);
  });
});

describe('ShareDonutChart', () => {
  it('gives each share as a percentage', () => {
    render(
      <ShareDonutChart
        title="Passed"
        categoryLabel="Value"
        valueLabel="Learners"
        data={[
          { label: 'True', value: 3 },
          { label: 'False', value: 1 },
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: 'Passed: True 75%, False 25%' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    expect(rowsOf(screen.getByRole('table'))).toEqual([
      ['True', '3', '75%'],
      ['False', '1', '25%'],
    ]);
  });
});
