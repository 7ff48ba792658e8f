import { ArrowLeft, Copy, Pencil, Printer, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { PageHeader } from '@/components/page-header';
import { PageMessage } from '@/components/page-message';
import { Button, buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { formatDateTime, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';

import { useDuplicateReport, useRefreshReportData, useReport, useReportData } from '../api/custom-reports';

import { DeleteReportDialog } from './custom-reports-page';
import { ReportPrintStyles } from './print-styles';
import { ReportDataView } from './report-data-view';
import { ReportFreshness } from './report-freshness';
import { SharePanel } from './share-panel';

/** `/custom-reports/view/:id`: the report's data as tables and charts, its export, print and Share control. */
export function ReportViewPage() {
  const { id = '' } = useParams();
  const organizationId = useSession().currentOrganization?.id;
  const report = useReport(organizationId, id);
  const data = useReportData(organizationId, id);
  const duplicate = useDuplicateReport(organizationId);
  const refresh = useRefreshReportData(organizationId, id);
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);

  if (report.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-20">
        <Spinner label="Loading the report" />
      </div>
    );
  }
  if (report.isError) {
    const missing = isApiError(report.error) && report.error.status === 404;
    return (
      <PageMessage
        title={missing ? 'Report not found' : 'Something went wrong'}
        actions={
          <Link to={paths.customReports.list.href()} className={buttonClassName({ variant: 'outline' })}>
            Back to reports
          </Link>
        }
      >
        {missing ? 'It may have been deleted.' : report.error.message}
      </PageMessage>
    );
  }

  const current = report.data;
  async function handleDuplicate() {
    try {
      const copy = await duplicate.mutateAsync(current.id);
      toast.success(`Report “${copy.name}” created`);
      void navigate(paths.customReports.edit.href(copy.id));
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The report could not be copied. Please try again.');
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${current.name} · Reports · CourseLens`}</title>
      <ReportPrintStyles />
      <Link
        to={paths.customReports.list.href()}
        className="flex w-fit items-center gap-1 rounded text-sm text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus print:hidden"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Reports
      </Link>
      <PageHeader
        title={current.name}
        description={
          <>
            {current.description ? <span className="block">{current.description}</span> : null}
            <span className="text-xs">
              {formatNumber(current.itemCount)} {current.itemCount === 1 ? 'item' : 'items'} · updated{' '}
              {formatDateTime(current.updatedAt)}
              {current.createdByName ? ` · created by ${current.createdByName}` : ''}
            </span>
          </>
        }
      />
      <div className="flex flex-wrap gap-2 print:hidden">
        <Link
          to={paths.customReports.edit.href(current.id)}
          className={buttonClassName({ variant: 'outline' })}
        >
          <Pencil aria-hidden="true" />
          Edit
        </Link>
        <ExportCsvButton path={`/custom-reports/${current.id}/export`} fileName={`${current.name}.csv`} />
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print / PDF
        </Button>
        <Button variant="outline" onClick={() => void handleDuplicate()} isLoading={duplicate.isPending}>
          {duplicate.isPending ? null : <Copy aria-hidden="true" />}
          Duplicate
        </Button>
        <Button variant="ghost" onClick={() => setConfirmDelete(true)}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
      <SharePanel report={current} organizationId={organizationId} />
      {data.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner label="Assembling the data" />
        </div>
      ) : data.isError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          The data could not be loaded: {data.error.message}
        </p>
      ) : (
        <div className="flex flex-col gap-3">
          <ReportFreshness
            data={data.data.data}
            isRefreshing={refresh.isPending}
            onRefresh={() =>
              refresh.mutate(undefined, {
                onError: (error) =>
                  toast.error(
                    isApiError(error)
                      ? error.message
                      : 'The report could not be refreshed. Please try again.',
                  ),
              })
            }
          />
          <ReportDataView data={data.data.data} />
        </div>
      )}
      <DeleteReportDialog
        report={confirmDelete ? current : null}
        organizationId={organizationId}
        onClose={() => setConfirmDelete(false)}
        onDeleted={() => void navigate(paths.customReports.list.href())}
      />
    </div>
  );
}
