import type { CustomReportListItem } from '@courselens/contracts';
import { Copy, FileBarChart, Globe, Pencil, Plus, Sparkles, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useListParams } from '@/lib/use-list-params';

import { REPORTS_PAGE_SIZE, useDeleteReport, useDuplicateReport, useReports } from '../api/custom-reports';

import { REPORT_LIST_DEFAULTS, REPORT_SORT_KEYS } from './report-list-params';

/** `/custom-reports`: the organization's reports, newest first, with their share status. */
export function CustomReportsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const [params, setParams] = useListParams(REPORT_SORT_KEYS, REPORT_LIST_DEFAULTS);
  const reports = useReports(organizationId, { q: params.q, page: params.page });
  const duplicate = useDuplicateReport(organizationId);
  const navigate = useNavigate();
  const [toDelete, setToDelete] = useState<CustomReportListItem | null>(null);

  async function handleDuplicate(report: CustomReportListItem) {
    try {
      const copy = await duplicate.mutateAsync(report.id);
      toast.success(`Report “${copy.name}” created`);
      void navigate(paths.customReports.edit.href(copy.id));
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The report could not be copied. Please try again.');
    }
  }

  const columns: DataTableColumn<CustomReportListItem>[] = [
    {
      id: 'name',
      header: 'Name',
      isRowHeader: true,
      cell: (report) => (
        <div className="flex min-w-0 flex-col gap-0.5">
          <Link
            to={paths.customReports.view.href(report.id)}
            className="rounded font-medium break-words hover:underline focus-visible:outline-2 focus-visible:outline-focus"
          >
            {report.name}
          </Link>
          {report.description ? (
            <span className="line-clamp-2 text-xs font-normal break-words text-fg-muted">
              {report.description}
            </span>
          ) : null}
          <span className="text-xs font-normal text-fg-subtle sm:hidden">
            {formatNumber(report.itemCount)} {report.itemCount === 1 ? 'item' : 'items'}
          </span>
        </div>
      ),
    },
    {
      id: 'items',
      header: 'Items',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (report) => formatNumber(report.itemCount),
    },
    {
      id: 'sharing',
      header: 'Sharing',
      className: 'hidden md:table-cell whitespace-nowrap',
      cell: (report) =>
        report.isPublic ? (
          <Badge variant="success" dot>
            Public · {formatNumber(report.viewCount)} views
          </Badge>
        ) : (
          <Badge>Private</Badge>
        ),
    },
    {
      id: 'created',
      header: 'Created',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (report) => (
        <span className="flex flex-col">
          <time dateTime={report.createdAt} title={formatDateTime(report.createdAt)}>
            {formatRelative(report.createdAt)}
          </time>
          {report.createdByName ? (
            <span className="text-xs text-fg-subtle">by {report.createdByName}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (report) => (
        <div className="flex justify-end gap-1">
          <Link
            to={paths.customReports.edit.href(report.id)}
            className={buttonClassName({ variant: 'ghost', size: 'icon' })}
            aria-label={`Edit ${report.name}`}
            title="Edit"
          >
            <Pencil aria-hidden="true" />
          </Link>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Duplicate ${report.name}`}
            title="Duplicate"
            onClick={() => void handleDuplicate(report)}
            disabled={duplicate.isPending}
          >
            <Copy aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Delete ${report.name}`}
            title="Delete"
            onClick={() => setToDelete(report)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ),
    },
  ];

  const data = reports.data;
  const createActions = (
    <>
      <Link to={paths.customReports.aiGenerator.href()} className={buttonClassName({ variant: 'outline' })}>
        <Sparkles aria-hidden="true" />
        Generate from text
      </Link>
      <Link to={paths.customReports.create.href()} className={buttonClassName()}>
        <Plus aria-hidden="true" />
        New report
      </Link>
    </>
  );

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Reports · CourseLens</title>
      <PageHeader
        title="Reports"
        description="Custom reports that combine variables and questions, newest first."
        actions={createActions}
      />
      <SearchField
        label="Search reports"
        placeholder="Search by name"
        value={params.q}
        onChange={(q) => setParams({ q })}
      />
      <DataTable
        caption="Reports"
        columns={columns}
        rows={data?.items}
        rowKey={(report) => report.id}
        isLoading={reports.isPending}
        isFetching={reports.isFetching && reports.isPlaceholderData}
        error={reports.isError ? reports.error.message : null}
        empty={
          params.q ? (
            <EmptyState icon={<FileBarChart />} title="No reports match your search">
              Try another name.
            </EmptyState>
          ) : (
            <EmptyState
              icon={<FileBarChart />}
              title="No reports yet"
              action={<div className="flex flex-wrap justify-center gap-2">{createActions}</div>}
            >
              Build one from your variables and questions, or describe it in a sentence and let the generator
              draft it.
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize || REPORTS_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => setParams({ page })}
          noun="reports"
        />
      ) : null}
      <DeleteReportDialog
        report={toDelete}
        organizationId={organizationId}
        onClose={() => setToDelete(null)}
      />
    </div>
  );
}

export function DeleteReportDialog({
  report,
  organizationId,
  onClose,
  onDeleted,
}: {
  report: { id: string; name: string; isPublic: boolean } | null;
  organizationId: string | null | undefined;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteReport(organizationId);
  async function handleDelete() {
    if (!report) return;
    try {
      await remove.mutateAsync(report.id);
      toast.success(`Report “${report.name}” deleted`);
      onClose();
      onDeleted?.();
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The report could not be deleted. Please try again.');
    }
  }
  return (
    <Dialog
      open={report !== null}
      onClose={onClose}
      title="Delete this report?"
      description={
        <>
          “{report?.name}” and its settings are deleted for everyone in your organization. The data it shows
          stays.
        </>
      }
    >
      {report?.isPublic ? (
        <p className="mb-4 flex items-center gap-2 text-sm text-fg-muted">
          <Globe aria-hidden="true" className="size-4" />
          Its public link stops working.
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void handleDelete()} isLoading={remove.isPending}>
          Delete report
        </Button>
      </div>
    </Dialog>
  );
}
