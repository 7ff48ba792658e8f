import type { LearnerVariable, LearnerVariableSortKey } from '@courselens/contracts';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import type { DataTableColumn } from '@/components/ui/data-table';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';

import { formatVariableValue } from './format-value';

const linkClassName =
  'rounded underline-offset-4 hover:text-accent hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus';

/** The columns of a learner’s variables; `withCourse` adds the course (linking to its variables). */
export function variableColumns(
  learnerId: string,
  { withCourse }: { withCourse: boolean },
): DataTableColumn<LearnerVariable, LearnerVariableSortKey>[] {
  return [
    {
      id: 'name',
      header: 'Variable',
      sortKey: 'name',
      isRowHeader: true,
      cell: (variable) => (
        <div className="flex min-w-0 flex-col">
          <span className="font-mono text-[0.8125rem] break-all">{variable.name}</span>
          {variable.title && variable.title !== variable.name ? (
            <span className="text-xs font-normal text-fg-subtle">{variable.title}</span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'value',
      header: 'Value',
      cell: (variable) => (
        <span className="break-words text-fg">{formatVariableValue(variable.dataType, variable.value)}</span>
      ),
    },
    ...(withCourse
      ? [
          {
            id: 'course',
            header: 'Course',
            sortKey: 'course' as const,
            className: 'hidden md:table-cell',
            cell: (variable: LearnerVariable) => (
              <Link
                to={paths.learners.courseVariables.href(learnerId, variable.courseId)}
                className={linkClassName}
              >
                {variable.courseTitle}
              </Link>
            ),
          },
        ]
      : []),
    {
      id: 'dataType',
      header: 'Type',
      sortKey: 'dataType',
      className: 'hidden sm:table-cell',
      cell: (variable) => <Badge variant="neutral">{variable.dataType}</Badge>,
    },
    {
      id: 'recordedAt',
      header: 'Recorded',
      sortKey: 'recordedAt',
      className: 'hidden whitespace-nowrap lg:table-cell',
      cell: (variable) => <time dateTime={variable.recordedAt}>{formatDateTime(variable.recordedAt)}</time>,
    },
  ];
}
