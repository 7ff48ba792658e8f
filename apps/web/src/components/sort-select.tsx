import { cn } from '@/lib/cn';

import type { DataTableColumn } from './ui/data-table';
import { inputClassName } from './ui/text-field';

export type SortSelectProps<Row, Key extends string> = {
  columns: readonly DataTableColumn<Row, Key>[];
  sort: Key;
  order: 'asc' | 'desc';
  onChange: (sort: { sort: Key; order: 'asc' | 'desc' }) => void;
  className?: string;
};

/**
 * Every sort of a table as one select: phones hide most columns (and their
 * sort buttons), so this offers them all. Columns with a text header and a
 * sort key give an ascending and a descending choice.
 */
export function SortSelect<Row, Key extends string>({
  columns,
  sort,
  order,
  onChange,
  className,
}: SortSelectProps<Row, Key>) {
  const options = columns.flatMap((column) =>
    column.sortKey !== undefined && typeof column.header === 'string'
      ? [
          { value: `${column.sortKey}:asc`, label: `${column.header}, ascending` },
          { value: `${column.sortKey}:desc`, label: `${column.header}, descending` },
        ]
      : [],
  );
  return (
    <label className={cn('flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted', className)}>
      Sort by
      <select
        value={`${sort}:${order}`}
        onChange={(event) => {
          const [nextSort, nextOrder] = event.target.value.split(':') as [Key, 'asc' | 'desc'];
          onChange({ sort: nextSort, order: nextOrder });
        }}
        className={cn(inputClassName, 'min-w-0 flex-1')}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
