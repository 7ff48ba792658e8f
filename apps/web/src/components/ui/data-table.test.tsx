import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { DataTable, type DataTableColumn } from './data-table';
import { Pagination } from './pagination';
import { SearchField } from './search-field';
import { Switch } from './switch';

type Row = { id: string; name: string; runs: number };
type Key = 'name' | 'runs';

const columns: DataTableColumn<Row, Key>[] = [
  { id: 'name', header: 'Name', cell: (row) => row.name, sortKey: 'name', isRowHeader: true },
  { id: 'runs', header: 'Runs', cell: (row) => row.runs, sortKey: 'runs', align: 'right' },
  { id: 'note', header: 'Note', cell: () => 'n/a' },
];
const rows: Row[] = [
  { id: '1', name: 'Safety', runs: 3 },
  { id: '2', name: 'Onboarding', runs: 10 },
];

describe('DataTable', () => {
  it('renders a captioned table with row headers', () => {
    render(<DataTable caption="Courses" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    const table = screen.getByRole('table', { name: 'Courses' });
    expect(within(table).getByRole('rowheader', { name: 'Onboarding' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('marks the sorted column and asks for the other order, or ascending on a new column', async () => {
    const onSortChange = vi.fn();
    render(
      <DataTable
        caption="Courses"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        sort={{ sort: 'runs', order: 'desc' }}
        onSortChange={onSortChange}
      />,
    );
    expect(screen.getByRole('columnheader', { name: /Runs/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: /Name/ })).not.toHaveAttribute('aria-sort');
    // Not sortable: plain text, no button.
    expect(within(screen.getByRole('columnheader', { name: 'Note' })).queryByRole('button')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /Runs/ }));
    expect(onSortChange).toHaveBeenLastCalledWith({ sort: 'runs', order: 'asc' });
    await userEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortChange).toHaveBeenLastCalledWith({ sort: 'name', order: 'asc' });
  });

  it('shows loading, error and empty states instead of rows', () => {
    const { rerender } = render(
      <DataTable caption="Courses" columns={columns} rows={undefined} rowKey={(row) => row.id} isLoading />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading courses');
    rerender(
      <DataTable
        caption="Courses"
        columns={columns}
        rows={undefined}
        rowKey={(row) => row.id}
        error="Boom"
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Boom');
    rerender(
      <DataTable
        caption="Courses"
        columns={columns}
        rows={[]}
        rowKey={(row) => row.id}
        empty="No courses yet"
      />,
    );
    expect(screen.getByText('No courses yet')).toBeInTheDocument();
  });
});

describe('Pagination', () => {
  it('says which rows are shown and disables the ends', async () => {
    const onPageChange = vi.fn();
    render(<Pagination page={1} pageSize={25} total={1234} onPageChange={onPageChange} noun="learners" />);
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent(
      '1–25 of 1,234 learners',
    );
    expect(screen.getByRole('button', { name: /Previous/ })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it('handles the last page and an empty list', () => {
    const { rerender } = render(<Pagination page={50} pageSize={25} total={1234} onPageChange={vi.fn()} />);
    expect(screen.getByText(/1,226–1,234/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Next/ })).toBeDisabled();
    rerender(<Pagination page={1} pageSize={25} total={0} onPageChange={vi.fn()} noun="courses" />);
    expect(screen.getByText('No courses')).toBeInTheDocument();
  });
});

describe('SearchField', () => {
  it('reports the text once typing pauses, and at once when cleared', async () => {
    const onChange = vi.fn();
    render(<SearchField label="Search learners" value="" onChange={onChange} delayMs={20} />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search learners' }), 'ann');
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith('ann'));
    expect(onChange).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(onChange).toHaveBeenLastCalledWith('');
  });
});

describe('Switch', () => {
  it('is a labelled switch that reports the new state', async () => {
    const onChange = vi.fn();
    render(<Switch checked={false} onChange={onChange} label="Active" />);
    const toggle = screen.getByRole('switch', { name: 'Active' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    expect(onChange).toHaveBeenCalledWith(true);
  });
});
