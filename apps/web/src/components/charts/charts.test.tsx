import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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

const learners = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ label: `Learner ${index + 1}`, value: index + 1 }));

function axisTitle(container: HTMLElement, axis: 'x' | 'y' | 'y-right'): HTMLElement | null {
  return container.querySelector<HTMLElement>(`[data-axis-title="${axis}"]`);
}

describe('category cap', () => {
  it('draws at most 30 bars: the 29 largest and Others, in a bounded height', () => {
    const { container } = render(
      <CategoryBarChart
        title="Points by learner"
        data={learners(123)}
        valueLabel="points"
        categoryLabel="Learner"
        orientation="horizontal"
        isAdditive
      />,
    );
    const drawing = screen.getByRole('img', {
      name: /^Points by learner: 30 bars, highest Learner 123 with 123 points/,
    });
    expect(drawing.getAttribute('aria-label')).toContain('Others with 4,465');
    // A phone's width in jsdom: labels stand above their bars, and 30 rows still fit in about a screen and a half.
    expect(Number.parseInt(drawing.style.height, 10)).toBeLessThanOrEqual(1100);
    expect(container.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(30);
    expect(container.querySelectorAll('[data-others="true"]')).toHaveLength(1);
    expect(container.querySelector('[data-others="true"]')).toHaveAttribute('fill', 'var(--chart-others)');
    expect(
      screen.getByText('Showing the 29 largest of 123; the other 94 are summed up in “Others”.'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    const rows = rowsOf(screen.getByRole('table'));
    expect(rows).toHaveLength(30);
    expect(rows[0]).toEqual(['Learner 95', '95']);
    expect(rows.at(-1)).toEqual(['Others', '4,465']);
  });

  it('keeps an Others row the caller already summed up, last and grey', () => {
    const { container } = render(
      <CategoryBarChart
        title="Answers"
        data={[{ label: 'Others', value: 9, isOthers: true, groups: 4 }, ...learners(3)]}
        valueLabel="answers"
        isAdditive
      />,
    );
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Answers: 4 bars, highest Learner 3 with 3 answers, Others with 9',
    );
    expect(container.querySelectorAll('[data-others="true"]')).toHaveLength(1);
    expect(
      screen.getByText('Showing the 3 largest of 7; the other 4 are summed up in “Others”.'),
    ).toBeInTheDocument();
  });

  it('never sums means into Others: the highest 30 and a note', () => {
    render(<CategoryBarChart title="Mean by learner" data={learners(40)} valueLabel="mean" />);
    expect(
      screen.getByRole('img', { name: /^Mean by learner: 30 bars, highest Learner 40 with 40 mean$/ }),
    ).toBeInTheDocument();
    expect(screen.getByText('Showing the 30 highest of 40; the other 10 are left out.')).toBeInTheDocument();
  });

  it('draws at most 8 slices: 7 and a grey Others, with a legend that names each', () => {
    const { container } = render(
      <ShareDonutChart
        title="Learners by course"
        data={learners(58)}
        valueLabel="Learners"
        categoryLabel="Course"
      />,
    );
    expect(container.querySelectorAll('.recharts-pie-sector')).toHaveLength(8);
    expect(container.querySelectorAll('[data-others="true"]')).toHaveLength(1);
    const legend = container.querySelector('ul');
    expect(legend?.querySelectorAll('li')).toHaveLength(8);
    expect(legend).toHaveTextContent('Others');
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    const rows = rowsOf(screen.getByRole('table'));
    expect(rows).toHaveLength(8);
    expect(rows.map((row) => row[0])).toEqual([
      'Learner 52',
      'Learner 53',
      'Learner 54',
      'Learner 55',
      'Learner 56',
      'Learner 57',
      'Learner 58',
      'Others',
    ]);
    expect(
      screen.getByText('Showing the 7 largest of 58; the other 51 are summed up in “Others”.'),
    ).toBeInTheDocument();
  });
});

describe('axis titles', () => {
  it('titles both axes of a bar chart, the value axis with its unit', () => {
    const { container } = render(
      <CategoryBarChart
        title="Scores"
        data={learners(3)}
        valueLabel="mean score"
        unit="points"
        categoryLabel="Course"
      />,
    );
    expect(axisTitle(container, 'x')).toHaveTextContent('Course');
    expect(axisTitle(container, 'y')).toHaveTextContent('Mean score (points)');
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Course', 'mean score (points)']);
  });

  it('puts the value axis at the bottom of horizontal bars', () => {
    const { container } = render(
      <CategoryBarChart
        title="Answers"
        data={learners(3)}
        valueLabel="answers"
        categoryLabel="Answer"
        orientation="horizontal"
      />,
    );
    expect(axisTitle(container, 'x')).toHaveTextContent('Answers');
    expect(axisTitle(container, 'y')).toHaveTextContent('Answer');
  });

  it('titles a histogram’s value and count axes', () => {
    const { container } = render(
      <HistogramChart
        title="Distribution"
        bins={[{ from: 0, to: 10, count: 2 }]}
        valueLabel="Final score"
        unit="points"
        countLabel="learners"
      />,
    );
    expect(axisTitle(container, 'x')).toHaveTextContent('Final score (points)');
    expect(axisTitle(container, 'y')).toHaveTextContent('Learners');
  });

  it('titles both axes of a two-axis line chart in the colour of their series', () => {
    const { container } = render(
      <TrendLineChart
        title="Correct rate per week"
        dateLabel="Week of"
        xLabel="Week (from Monday, UTC)"
        data={[
          { date: '2026-03-02', rate: 50, responses: 4 },
          { date: '2026-03-09', rate: 75, responses: 8 },
        ]}
        series={[
          { key: 'rate', label: 'Correct rate', unit: '%' },
          { key: 'responses', label: 'Answers', axis: 'right' },
        ]}
      />,
    );
    expect(axisTitle(container, 'x')).toHaveTextContent('Week (from Monday, UTC)');
    expect(axisTitle(container, 'y')).toHaveTextContent('Correct rate (%)');
    expect(axisTitle(container, 'y')).toHaveAttribute('data-color', 'var(--chart-1)');
    expect(axisTitle(container, 'y')?.querySelector('line')).toHaveAttribute('stroke', 'var(--chart-1)');
    expect(axisTitle(container, 'y-right')).toHaveTextContent('Answers');
    expect(axisTitle(container, 'y-right')).toHaveAttribute('data-color', 'var(--chart-2)');
    expect(axisTitle(container, 'y-right')?.querySelector('line')).toHaveAttribute(
      'stroke',
      'var(--chart-2)',
    );
    expect(container.querySelector('[data-chart-legend]')).toHaveTextContent('Correct rate (left axis)');
    expect(container.querySelector('[data-chart-legend]')).toHaveTextContent('Answers (right axis)');
  });
});

describe('lines that invent nothing', () => {
  const zigzag = [
    { date: '2026-03-01', count: 1 },
    { date: '2026-03-02', count: 9 },
    { date: '2026-03-03', count: 2 },
    { date: '2026-03-04', count: 8 },
  ];

  it('draws straight segments between the points, never a curve', () => {
    const { container } = render(
      <TrendLineChart title="Values" data={zigzag} series={[{ key: 'count', label: 'Values' }]} />,
    );
    const paths = [...container.querySelectorAll('path.recharts-line-curve')];
    expect(paths).toHaveLength(1);
    // Straight lines are moves and line-tos only; a monotone or natural curve writes C (bezier) commands.
    expect(paths[0]?.getAttribute('d')).toMatch(/^M[\d.,\-\s]+(L[\d.,\-\s]+){3}$/);
  });

  it('leaves a gap where a value is missing instead of bridging it', () => {
    const { container } = render(
      <TrendLineChart
        title="Mean"
        data={[
          { date: '2026-03-01', mean: 3 },
          { date: '2026-03-02', mean: 4 },
          { date: '2026-03-03', mean: null },
          { date: '2026-03-04', mean: 5 },
          { date: '2026-03-05', mean: 6 },
        ]}
        series={[{ key: 'mean', label: 'Mean' }]}
      />,
    );
    const d = container.querySelector('path.recharts-line-curve')?.getAttribute('d') ?? '';
    expect(d.match(/M/g)).toHaveLength(2);
  });

  it('uses no smoothing curve type anywhere in the chart primitives', () => {
    const folder = join(process.cwd(), 'apps/web/src/components/charts');
    const sources = readdirSync(folder)
      .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
      .map((file) => readFileSync(join(folder, file), 'utf8'));
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) {
      expect(source).not.toMatch(/type=["'](monotone|natural|basis|cardinal|catmullRom|bump[XY]?)["']/);
    }
  });
});

describe('partial periods', () => {
  const weeks = [
    { date: '2026-02-23', count: 10, mean: 70 },
    { date: '2026-03-02', count: 12, mean: 72 },
    { date: '2026-03-09', count: 2, mean: 60, isPartial: true },
  ];

  function renderWeeks() {
    return render(
      <TrendLineChart
        title="Values per week"
        dateLabel="Week of"
        data={weeks}
        series={[
          { key: 'count', label: 'Values' },
          { key: 'mean', label: 'Mean', axis: 'right' },
        ]}
        partialLabel="This week so far"
      />,
    );
  }

  it('draws the segment into the unfinished week dashed, with a hollow dot, and says what it is', () => {
    const { container } = renderWeeks();
    const paths = [...container.querySelectorAll('path.recharts-line-curve')];
    const solid = paths.filter((path) => !path.getAttribute('stroke-dasharray'));
    const dashed = paths.filter((path) => path.getAttribute('stroke-dasharray'));
    expect(solid).toHaveLength(2);
    expect(dashed).toHaveLength(2);
    // The solid lines stop at the last whole week: one segment each.
    for (const path of solid) expect(path.getAttribute('d')?.match(/L/g)).toHaveLength(1);
    for (const path of dashed) expect(path.getAttribute('d')?.match(/L/g)).toHaveLength(1);
    const hollow = container.querySelectorAll('circle[data-partial="true"]');
    expect(hollow).toHaveLength(2);
    expect(hollow[0]).toHaveAttribute('fill', 'var(--cl-surface)');
    expect(container.querySelector('[data-partial-note]')).toHaveTextContent('This week so far');
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/; Mar 9: this week so far$/);
  });

  it('marks the unfinished week in the table', () => {
    renderWeeks();
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    expect(rowsOf(screen.getByRole('table')).at(-1)).toEqual(['Mar 9 (this week so far)', '2', '60']);
  });

  it('draws no dashes and no note when every period is whole', () => {
    const { container } = render(
      <TrendLineChart title="Values" data={weeks.slice(0, 2)} series={[{ key: 'count', label: 'Values' }]} />,
    );
    expect(container.querySelector('path[stroke-dasharray]')).toBeNull();
    expect(container.querySelector('[data-partial-note]')).toBeNull();
  });
});

describe('narrow screens', () => {
  it('cuts a long category label with an ellipsis and keeps the whole label as its title', () => {
    const label = 'A very long answer that would run over every neighbouring label on a phone';
    const { container } = render(
      <CategoryBarChart
        title="Answers"
        data={[
          { label, value: 3 },
          { label: 'Short', value: 1 },
        ]}
        valueLabel="answers"
        orientation="horizontal"
      />,
    );
    const tick = container.querySelector(`[data-tick="${label}"]`);
    expect(tick?.querySelector('title')).toHaveTextContent(label);
    const shown = tick?.querySelector('text')?.textContent ?? '';
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBeLessThan(label.length);
  });
});

describe('bars of 0', () => {
  it('keep their category label, on a phone too', () => {
    const { container } = render(
      <CategoryBarChart
        title="Pass rate by department"
        data={[
          { label: 'Finance', value: 100 },
          { label: 'Sales', value: 0 },
          { label: 'Customer Support', value: 67 },
        ]}
        valueLabel="pass rate"
        orientation="horizontal"
      />,
    );
    const labels = [...container.querySelectorAll('[data-tick]')].map((tick) =>
      tick.getAttribute('data-tick'),
    );
    expect(labels).toEqual(expect.arrayContaining(['Finance', 'Sales', 'Customer Support']));
  });
});

describe('crowded columns', () => {
  it('turns columns too narrow for their long labels into horizontal bars', () => {
    const { container } = render(
      <CategoryBarChart
        title="Learners by course"
        data={Array.from({ length: 20 }, (_, index) => ({
          label: `Leadership Foundations ${index + 1}`,
          value: index + 1,
        }))}
        valueLabel="learners"
        categoryLabel="Course"
      />,
    );
    // Horizontal bars: the values run along the bottom, the courses down the side.
    expect(axisTitle(container, 'x')).toHaveTextContent('Learners');
    expect(axisTitle(container, 'y')).toHaveTextContent('Course');
  });

  it('keeps short labels such as months as columns', () => {
    const { container } = render(
      <CategoryBarChart
        title="Learners by month"
        data={['2026-08', '2026-09', '2026-10'].map((label, index) => ({ label, value: index + 1 }))}
        valueLabel="learners"
        categoryLabel="Month"
      />,
    );
    expect(axisTitle(container, 'x')).toHaveTextContent('Month');
  });

  it('puts the value axis on round steps', () => {
    const written: number[] = [];
    const { container } = render(
      <CategoryBarChart
        title="Answers"
        data={[{ label: 'A', value: 203 }]}
        valueLabel="answers"
        formatValue={(value) => {
          written.push(value);
          return String(value);
        }}
      />,
    );
    // The axis writes its ticks through formatValue: 0 to 250 by 50 (recharts alone would step by 55).
    expect(container.querySelectorAll('.recharts-yAxis .recharts-cartesian-axis-tick-line')).toHaveLength(6);
    expect(written).toEqual(expect.arrayContaining([0, 50, 100, 150, 200, 250]));
    expect(written.filter((value) => value !== 203 && value % 50 !== 0)).toEqual([]);
  });
});

describe('histogram bins', () => {
  it('uses the label the server gave a bin, the one the AI summary names', () => {
    render(
      <HistogramChart
        title="Distribution"
        bins={[
          { from: 0, to: 10, count: 2, label: '0–10' },
          { from: 10, to: 20, count: 5, label: '10–20' },
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: /most in 10–20 \(5\)$/ })).toBeInTheDocument();
  });

  it('names bins with the shared nice-bin words when the server gives none', () => {
    render(<HistogramChart title="Distribution" bins={[{ from: 0.25, to: 0.5, count: 3 }]} />);
    expect(
      screen.getByRole('img', { name: /from 0.25 to 0.5, most in 0.25–0.5 \(3\)$/ }),
    ).toBeInTheDocument();
  });
});
