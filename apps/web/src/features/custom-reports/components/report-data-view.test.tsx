import { METRIC_DEFINITIONS, type ReportData, type ReportItemData } from '@courselens/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { itemData, result, row } from './report-fixtures';
import { bucketLabel, formatMeasureValue, ReportDataView } from './report-data-view';

function renderItems(...items: ReportItemData[]) {
  const data: ReportData = { generatedAt: '2026-03-10T12:00:00.000Z', refreshing: false, since: null, items };
  return render(<ReportDataView data={data} />);
}

function section(title: string): HTMLElement {
  return screen.getByRole('region', { name: title });
}

function rowsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .map((entry) => [...entry.querySelectorAll('th,td')].map(visibleText));
}

/** A cell's text without the definitions its info buttons hold (hidden until asked for). */
function visibleText(cell: Element): string {
  const copy = cell.cloneNode(true) as Element;
  copy.querySelectorAll('[role="tooltip"]').forEach((tip) => tip.remove());
  return copy.textContent?.trim() ?? '';
}

const byDepartment = { kind: 'variable' as const, variableName: 'department' };

describe('formatMeasureValue', () => {
  it('writes shares as percentages and counts as whole numbers', () => {
    expect(formatMeasureValue(0.6437, 'percent')).toBe('64.4%');
    expect(formatMeasureValue(1, 'percent')).toBe('100%');
    expect(formatMeasureValue(12.6, 'count')).toBe('13');
    expect(formatMeasureValue(1234, 'count')).toBe('1,234');
    expect(formatMeasureValue(71.456, 'number')).toBe('71.46');
    expect(formatMeasureValue(null, 'number')).toBe('—');
  });

  it('writes time buckets as dates', () => {
    expect(bucketLabel('2026-03-02', 'month')).toBe('March 2026');
    expect(bucketLabel('2020-03-02', 'week')).toBe('Week of Mar 2, 2020');
  });
});

describe('ReportDataView', () => {
  it('shows one big number with its measure and the definition behind an info button', async () => {
    renderItems(
      itemData({
        itemId: 'i1',
        title: 'Safety pass rate',
        chart: 'number',
        result: result('pass_rate', { kind: 'none', variableName: null }, [], {
          total: { value: 0.643, learners: 28, count: 28 },
        }),
      }),
    );
    const item = section('Safety pass rate');
    expect(within(item).getByTestId('big-number')).toHaveTextContent('64.3%');
    expect(within(item).getByTestId('big-number')).toHaveTextContent('28 learners');
    const info = within(item).getByRole('button', { name: 'What Pass rate means' });
    expect(info).toHaveAccessibleDescription(METRIC_DEFINITIONS.pass_rate);
    expect(within(item).getByRole('button', { name: 'What learners means' })).toHaveAccessibleDescription(
      METRIC_DEFINITIONS.learners,
    );
    // The tip also opens for sighted users (hover, focus or a tap).
    await userEvent.click(info);
    expect(within(item).getByRole('tooltip')).toBeVisible();
  });

  it('draws a table with the partial bucket marked "so far", the Others row and the total', () => {
    renderItems(
      itemData({
        itemId: 'i2',
        title: 'Scores by department',
        chart: 'table',
        result: result(
          'average',
          byDepartment,
          [
            row({ key: 'Sales', label: 'Sales', value: 81.25, learners: 4, count: 4 }),
            row({ key: 'Finance', label: 'Finance', value: 70, learners: 3, count: 3 }),
          ],
          {
            total: { value: 74.5, learners: 12, count: 13 },
            others: row({ key: 'others', label: 'Others', value: 72, learners: 5, count: 6, groups: 3 }),
            groupCount: 5,
          },
        ),
      }),
    );
    const table = within(section('Scores by department')).getByRole('table');
    expect(rowsOf(table)).toEqual([
      ['department', 'Average', 'Learners', 'Values'],
      ['Sales', '81.25', '4', '4'],
      ['Finance', '70', '3', '3'],
      ['Others (3 more)', '72', '5', '6'],
      ['All', '74.5', '12', '13'],
    ]);
    // Each count says what it counts where it appears.
    expect(within(table).getByRole('button', { name: 'What Values means' })).toHaveAccessibleDescription(
      METRIC_DEFINITIONS.values,
    );
    expect(within(table).getByRole('button', { name: 'What Learners means' })).toHaveAccessibleDescription(
      METRIC_DEFINITIONS.learners,
    );
  });

  it('marks an unfinished week "so far" in a table over time', () => {
    renderItems(
      itemData({
        itemId: 'i3',
        title: 'Weekly responses',
        chart: 'table',
        query: {
          subject: { kind: 'questions', courseIds: [] },
          measure: { fn: 'responses', mark: null },
          breakdown: { kind: 'week', variableName: null },
          filters: { courseIds: [], period: null, values: [], activity: [] },
          sort: null,
          limit: null,
        },
        result: result(
          'responses',
          { kind: 'week', variableName: null },
          [
            row({ key: '2020-03-02', value: 40, count: 40, learners: 12 }),
            row({ key: '2020-03-09', value: 7, count: 7, learners: 3, isPartial: true }),
          ],
          { total: { value: 47, learners: 14, count: 47 } },
        ),
      }),
    );
    const table = within(section('Weekly responses')).getByRole('table');
    const [, whole, partial] = rowsOf(table);
    expect(whole?.[0]).toBe('Week of Mar 2, 2020');
    expect(partial?.[0]).toBe('Week of Mar 9, 2020so far');
    // Responses are the measure: the column is not repeated.
    expect(rowsOf(table)[0]).toEqual(['Week', 'Responses', 'Learners']);
  });

  it('draws bars of a rate in percent, with the Others bar last', async () => {
    renderItems(
      itemData({
        itemId: 'i4',
        title: 'Pass rate by department',
        chart: 'bar',
        dataType: 'boolean',
        result: result(
          'pass_rate',
          byDepartment,
          [
            row({ key: 'Sales', label: 'Sales', value: 0.8, learners: 5 }),
            row({ key: 'Finance', label: 'Finance', value: 0.5, learners: 4 }),
          ],
          {
            total: { value: 0.6, learners: 15, count: 15 },
            others: row({ key: 'others', label: 'Others', value: 0.4, learners: 6, groups: 2 }),
            groupCount: 4,
          },
        ),
      }),
    );
    const item = section('Pass rate by department');
    expect(within(item).getByTestId('fact-measure')).toHaveTextContent('60%');
    const figure = within(item).getByRole('figure', { name: 'Pass rate by department' });
    await userEvent.click(within(figure).getByRole('button', { name: 'Show as table' }));
    const rows = rowsOf(within(figure).getByRole('table'));
    expect(rows.slice(1).map((entry) => entry.slice(0, 2))).toEqual([
      ['Sales', '80%'],
      ['Finance', '50%'],
      ['Others (2 more)', '40%'],
    ]);
  });

  it('draws a line over time and a pie of a count with Others', async () => {
    renderItems(
      itemData({
        itemId: 'i5',
        title: 'Learners per month',
        chart: 'line',
        result: result(
          'learners',
          { kind: 'month', variableName: null },
          [
            row({ key: '2020-01-01', value: 10, learners: 10 }),
            row({ key: '2020-02-01', value: 14, learners: 14 }),
          ],
          { total: { value: 20, learners: 20, count: 30 } },
        ),
      }),
      itemData({
        itemId: 'i6',
        title: 'Learners by department',
        chart: 'pie',
        result: result(
          'learners',
          byDepartment,
          [row({ key: 'Sales', label: 'Sales', value: 6, learners: 6 })],
          {
            total: { value: 9, learners: 9, count: 9 },
            others: row({ key: 'others', label: 'Others', value: 3, learners: 3, groups: 4 }),
            groupCount: 5,
          },
        ),
      }),
    );
    const line = within(section('Learners per month')).getByRole('figure');
    await userEvent.click(within(line).getByRole('button', { name: 'Show as table' }));
    expect(rowsOf(within(line).getByRole('table')).map((entry) => entry[0])).toContain('January 2020');

    const pie = within(section('Learners by department')).getByRole('figure');
    await userEvent.click(within(pie).getByRole('button', { name: 'Show as table' }));
    const slices = rowsOf(within(pie).getByRole('table')).map((entry) => entry[0]);
    expect(slices).toEqual(expect.arrayContaining(['Sales', 'Others (4 more)']));
  });

  it('ranks learners in a leaderboard with the rest summed up', () => {
    renderItems(
      itemData({
        itemId: 'i7',
        title: 'Top learners',
        chart: 'leaderboard',
        result: result(
          'average',
          { kind: 'learner', variableName: null },
          [
            row({ key: 'l1', label: 'Ann Archer', value: 98, detail: '98' }),
            row({ key: 'l2', label: 'Ben Baker', value: 91, detail: '91' }),
          ],
          {
            total: { value: 70, learners: 30, count: 30 },
            others: row({ key: 'others', label: 'Others', value: 66, learners: 28, groups: 28 }),
            groupCount: 30,
          },
        ),
      }),
    );
    const board = screen.getByRole('list', { name: 'Top learners leaderboard' });
    const entries = within(board).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      '1Ann Archer98',
      '2Ben Baker91',
      'Others (28 more)66',
    ]);
    expect(within(section('Top learners')).getByText(/top 2 of 30/)).toBeInTheDocument();
  });

  it('says an item whose course was deleted has no data', () => {
    renderItems(itemData({ itemId: 'i8', title: 'Gone', chart: 'table', available: false }));
    expect(within(section('Gone')).getByText(/was deleted; it has no data/)).toBeInTheDocument();
  });
});
