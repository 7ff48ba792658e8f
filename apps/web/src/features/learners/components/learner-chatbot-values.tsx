import type { LearnerChatbotVariable } from '@courselens/contracts';
import { Bot } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';

import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatCapturedValue, formatDateTime, formatRelative } from '@/lib/format';

import { useLearnerChatbotVariables } from '../api/get-learner-chatbot-variables';

const linkClassName =
  'rounded underline-offset-4 hover:text-accent hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus';

const columns: DataTableColumn<LearnerChatbotVariable>[] = [
  {
    id: 'variable',
    header: 'Variable',
    isRowHeader: true,
    cell: (variable) => (
      <div className="flex min-w-0 flex-col">
        <span>{variable.title}</span>
        <span className="font-mono text-xs font-normal break-all text-fg-subtle">{variable.name}</span>
      </div>
    ),
  },
  {
    id: 'value',
    header: 'Value',
    cell: (variable) => (
      <span className="break-words text-fg">{formatCapturedValue(variable.value, variable.type)}</span>
    ),
  },
  {
    id: 'chatbot',
    header: 'Agent',
    className: 'hidden sm:table-cell',
    cell: (variable) => (
      <Link to={paths.chatbots.edit.href(variable.chatbotId)} className={linkClassName}>
        {variable.chatbotName}
      </Link>
    ),
  },
  {
    id: 'recordedAt',
    header: 'Captured',
    className: 'hidden whitespace-nowrap md:table-cell',
    cell: (variable) => (
      <time dateTime={variable.recordedAt} title={formatDateTime(variable.recordedAt)}>
        {formatRelative(variable.recordedAt)}
      </time>
    ),
  },
];

export type LearnerChatbotValuesProps = { learnerId: string; className?: string };

/** What custom AI agents captured from the learner: the latest value of each agent variable. */
export function LearnerChatbotValues({ learnerId, className }: LearnerChatbotValuesProps) {
  const session = useSession();
  const values = useLearnerChatbotVariables(session.currentOrganization?.id, learnerId);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn('flex flex-col gap-3', className)}>
      <div>
        <h2 id={headingId} className="text-lg font-semibold tracking-tight text-fg">
          Chatbot values
        </h2>
        <p className="text-sm text-fg-muted">
          What the learner told your custom AI agents, latest answer first.
        </p>
      </div>
      <DataTable
        caption="Chatbot values of this learner"
        columns={columns}
        rows={
          values.data
            ? [...values.data.items].sort((a, b) => b.recordedAt.localeCompare(a.recordedAt))
            : undefined
        }
        rowKey={(variable) => variable.chatbotVariableId}
        isLoading={values.isPending}
        error={values.isError ? values.error.message : null}
        empty={
          <EmptyState icon={<Bot />} title="No chatbot values yet">
            Values appear here when a custom AI agent captures an answer from this learner.
          </EmptyState>
        }
      />
    </section>
  );
}
