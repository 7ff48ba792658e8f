import type { CustomReportDraft, GenerateReportResponse } from '@courselens/contracts';
import { useLocation, useNavigate, useParams } from 'react-router';

import { PageHeader } from '@/components/page-header';
import { PageMessage } from '@/components/page-message';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { toast } from '@/lib/toast';

import { useReport, useReportCatalog, useSaveReport } from '../api/custom-reports';

import { ReportBuilder } from './report-builder';
import {
  formValuesFromDraft,
  formValuesFromReport,
  toReportInput,
  type ReportFormValues,
} from './report-form';

/** What the generator hands to the create page through the router's state. */
export type BuilderLocationState = { draft?: GenerateReportResponse['draft'] } | null;

function BuilderScreen({
  title,
  description,
  reportId,
  defaultValues,
}: {
  title: string;
  description: string;
  reportId: string | null;
  defaultValues: ReportFormValues;
}) {
  const organizationId = useSession().currentOrganization?.id;
  const catalog = useReportCatalog(organizationId);
  const save = useSaveReport(organizationId);
  const navigate = useNavigate();

  async function handleSubmit(values: CustomReportDraft) {
    try {
      const report = await save.mutateAsync({ reportId, input: toReportInput(values) });
      toast.success(`Report “${report.name}” saved`);
      void navigate(paths.customReports.view.href(report.id));
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The report could not be saved. Please try again.');
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-7xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${title} · CourseLens`}</title>
      <PageHeader title={title} description={description} />
      {catalog.isError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          Your variables and questions could not be loaded: {catalog.error.message}
        </p>
      ) : null}
      <ReportBuilder
        organizationId={organizationId}
        defaultValues={defaultValues}
        catalog={catalog.data}
        submitLabel={reportId ? 'Save changes' : 'Create report'}
        onSubmit={handleSubmit}
        onCancel={() =>
          void navigate(reportId ? paths.customReports.view.href(reportId) : paths.customReports.list.href())
        }
      />
    </div>
  );
}

/** `/custom-reports/create`: an empty builder, or the generator's draft to edit. */
export function CreateReportPage() {
  const location = useLocation();
  const draft = (location.state as BuilderLocationState)?.draft ?? null;
  return (
    <BuilderScreen
      title="Create report"
      description={
        draft
          ? 'The generated draft: check it, change what you like and save.'
          : 'Choose what each item reads, what it shows and how; the preview shows the result as you build.'
      }
      reportId={null}
      defaultValues={formValuesFromDraft(draft)}
    />
  );
}

/** `/custom-reports/edit/:id`: the builder filled with a saved report. */
export function EditReportPage() {
  const { id = '' } = useParams();
  const organizationId = useSession().currentOrganization?.id;
  const report = useReport(organizationId, id);
  if (report.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-20">
        <Spinner label="Loading the report" />
      </div>
    );
  }
  if (report.isError) {
    return (
      <PageMessage
        title={
          isApiError(report.error) && report.error.status === 404
            ? 'Report not found'
            : 'Something went wrong'
        }
      >
        {report.error.message}
      </PageMessage>
    );
  }
  return (
    <BuilderScreen
      key={report.data.id}
      title="Edit report"
      description={`Change “${report.data.name}”.`}
      reportId={report.data.id}
      defaultValues={formValuesFromReport(report.data)}
    />
  );
}
