import { EyeOff } from 'lucide-react';
import { useParams } from 'react-router';

import { Logo } from '@/components/logo';
import { PageMessage } from '@/components/page-message';
import { SharedBy } from '@/components/shared-by';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';

import { SHARE_TOKEN_SHAPE, usePublicReport } from '../api/custom-reports';

import { ReportPrintStyles } from './print-styles';
import { ReportDataView } from './report-data-view';
import { ReportFreshness } from './report-freshness';

/** `/public-reports/:token`: a shared report without sign-in or app chrome; anything else is "not available". */
export function PublicReportPage() {
  const { token = '' } = useParams();
  const report = usePublicReport(token);

  if (!SHARE_TOKEN_SHAPE.test(token)) return <NotAvailable />;
  if (report.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-20">
        <Spinner label="Loading the report" />
      </div>
    );
  }
  if (report.isError) {
    if (isApiError(report.error) && report.error.status === 404) return <NotAvailable />;
    return (
      <PageMessage icon={<EyeOff />} title="Something went wrong">
        {report.error.message}
      </PageMessage>
    );
  }

  const { report: shared, data, organization } = report.data;
  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${shared.name} · CourseLens`}</title>
      <ReportPrintStyles />
      <div className="flex items-center justify-between gap-4">
        <Logo />
        <span className="text-xs text-fg-muted">Shared report · read-only</span>
      </div>
      <header>
        <SharedBy organizationName={organization.name || null} />
        <h1 className="text-2xl font-bold tracking-tight text-balance text-fg sm:text-3xl">{shared.name}</h1>
        {shared.description ? (
          <p className="mt-1.5 text-sm text-fg-muted sm:text-base">{shared.description}</p>
        ) : null}
        <div className="mt-1">
          <ReportFreshness data={data} />
        </div>
      </header>
      <ReportDataView data={data} />
    </div>
  );
}

function NotAvailable() {
  return (
    <PageMessage icon={<EyeOff />} title="This report is not available">
      <title>Report not available · CourseLens</title>
      The link may be wrong, or its owner has stopped sharing it or replaced it with a new one.
    </PageMessage>
  );
}
