import {
  LEARNER_DEFAULT_SORT,
  LEARNER_SORT_KEYS,
  type LearnerListItem,
  type LearnerSortKey,
} from '@courselens/contracts';
import { GraduationCap, SearchX } from 'lucide-react';
import { Link } from 'react-router';

import { EmailText } from '@/components/email-text';
import { PageHeader } from '@/components/page-header';
import type { DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { formatDate, formatNumber, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';

import { useLearners } from '../api/get-learners';

import { learnerDisplayName } from './format-value';
import { ListSection } from './list-section';

const linkClassName =
  'rounded font-medium text-fg underline-offset-4 hover:text-accent hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus';

const columns: DataTableColumn<LearnerListItem, LearnerSortKey>[] = [
  {
    id: 'name',
    header: 'Name',
    sortKey: 'name',
    isRowHeader: true,
    cell: (learner) => (
      <div className="flex min-w-0 flex-col">
        <Link to={paths.learners.courses.href(learner.id)} className={linkClassName}>
          {learnerDisplayName(learner)}
        </Link>
        {/* On phones the other columns are hidden: their values go under the name. */}
        <EmailText email={learner.email} className="text-xs font-normal text-fg-muted md:hidden" />
        <span className="text-xs font-normal text-fg-subtle sm:hidden">
          {learner.courses === 1 ? '1 course' : `${formatNumber(learner.courses)} courses`} ·{' '}
          {learner.lastActivityAt ? `active ${formatRelative(learner.lastActivityAt)}` : 'never active'}
        </span>
      </div>
    ),
  },
  {
    id: 'email',
    header: 'Email',
    sortKey: 'email',
    className: 'hidden md:table-cell',
    cell: (learner) => <EmailText email={learner.email} />,
  },
  {
    id: 'courses',
    header: 'Courses',
    sortKey: 'courses',
    align: 'right',
    className: 'hidden sm:table-cell',
    cell: (learner) => formatNumber(learner.courses),
  },
  {
    id: 'lastActivity',
    header: 'Last activity',
    sortKey: 'lastActivity',
    className: 'hidden whitespace-nowrap sm:table-cell',
    cell: (learner) =>
      learner.lastActivityAt ? (
        <time dateTime={learner.lastActivityAt} title={new Date(learner.lastActivityAt).toLocaleString()}>
          {formatRelative(learner.lastActivityAt)}
        </time>
      ) : (
        <span className="text-fg-subtle">Never</span>
      ),
  },
  {
    id: 'createdAt',
    header: 'First seen',
    sortKey: 'createdAt',
    className: 'hidden whitespace-nowrap lg:table-cell',
    cell: (learner) => <time dateTime={learner.createdAt}>{formatDate(learner.createdAt)}</time>,
  },
];

/** `/learners`: every learner of the organization, searchable by the start of name or e-mail. */
export function LearnersPage() {
  const session = useSession();
  const [params, setParams] = useListParams(LEARNER_SORT_KEYS, LEARNER_DEFAULT_SORT);
  const learners = useLearners(session.currentOrganization?.id, params);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <title>Learners · CourseLens</title>
      <PageHeader
        title="Learners"
        description="Everyone your courses have reported, with their courses and latest activity."
      />
      <div className="mt-8">
        <ListSection
          caption="Learners"
          searchLabel="Search learners"
          searchPlaceholder="Name or e-mail"
          columns={columns}
          rowKey={(learner) => learner.id}
          params={params}
          onParamsChange={setParams}
          query={learners}
          exportPath="/learners/export"
          exportFileName="learners.csv"
          noun="learners"
          emptySearch={
            <EmptyState icon={<SearchX />} title={`No learner’s name or e-mail starts with “${params.q}”`}>
              Search matches the beginning of a name (“Ann”) or an e-mail address (“ann@”).
            </EmptyState>
          }
          empty={
            <EmptyState icon={<GraduationCap />} title="No learners yet">
              Learners appear here the first time one of your courses sends an event about them.
            </EmptyState>
          }
        />
      </div>
    </div>
  );
}
