import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { HeatGrid, heatStep } from './heat-grid';

const legend = [
  { label: 'Low', intensity: 0.1 },
  { label: 'High', intensity: 0.9 },
];

describe('HeatGrid', () => {
  const onSelect = vi.fn();
  const renderGrid = () =>
    render(
      <HeatGrid
        title="Rates"
        rowHeader="Slide"
        columns={[
          { key: 'a', label: 'Q1' },
          { key: 'b', label: 'Q2' },
        ]}
        rows={[
          {
            key: 's1',
            label: 'Slide 1',
            cells: [
              { intensity: 0.8, text: '80%', label: 'Slide 1, Q1: 80% correct' },
              {
                intensity: 0.1,
                text: '10%',
                label: 'Slide 1, Q2: 10% correct, too few',
                isMarked: true,
                onSelect,
              },
            ],
          },
          {
            key: 's2',
            label: 'Slide 2',
            cells: [null, { intensity: null, text: '–', label: 'Slide 2, Q2: no answers' }],
          },
        ]}
        scale="diverging"
        legend={legend}
        markLabel="Too few responses"
      />,
    );

  it('gives every cell its value as text, marks uncertain cells and explains the mark', () => {
    renderGrid();
    const grid = screen.getByRole('table', { name: 'Rates' });
    expect(within(grid).getByText('Slide 1, Q1: 80% correct')).toBeInTheDocument();
    expect(within(grid).getByText('No value')).toBeInTheDocument();
    const marked = within(grid).getByText('Slide 1, Q2: 10% correct, too few').closest('td');
    expect(marked).toHaveAttribute('data-marked', 'true');
    expect(marked).toHaveAttribute('data-step', '0');
    expect(screen.getByText('Too few responses')).toBeInTheDocument();
    fireEvent.click(within(grid).getByRole('button', { name: 'Slide 1, Q2: 10% correct, too few' }));
    expect(onSelect).toHaveBeenCalledOnce();
  });

  it('switches to a plain table of the same values and back', () => {
    renderGrid();
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    const table = screen.getByRole('table', { name: 'Rates' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th,td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Slide 1', 'Q1', 'Slide 1, Q1: 80% correct'],
      ['Slide 1', 'Q2', 'Slide 1, Q2: 10% correct, too few'],
      ['Slide 2', 'Q2', 'Slide 2, Q2: no answers'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Show as grid' }));
    expect(screen.getByRole('button', { name: 'Show as table' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('says so when there is nothing to show', () => {
    render(
      <HeatGrid
        title="Empty"
        rowHeader="Day"
        columns={[]}
        rows={[]}
        scale="sequential"
        legend={legend}
        emptyText="Nothing yet."
      />,
    );
    expect(screen.getByText('Nothing yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show as table' })).not.toBeInTheDocument();
  });
});

describe('heatStep', () => {
  it('puts values in five 20-point bands, 1 in the top one', () => {
    expect([0, 0.19, 0.2, 0.59, 0.6, 0.99, 1].map(heatStep)).toEqual([0, 0, 1, 2, 3, 4, 4]);
  });
});
