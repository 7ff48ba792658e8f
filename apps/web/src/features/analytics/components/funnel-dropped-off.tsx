import {
  DEFAULT_PAGE_SIZE,
  type FunnelDefinitionInput,
  type FunnelDroppedLearner,
  type FunnelPeriod,
} from '@courselens/contracts';
import { Download } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { Pagination } from '@/components/ui/pagination';
import { Sheet } from '@/components/ui/sheet';
import { isApiError } from '@/lib/api-client';
import { downloadText } from '@/lib/download';
import { formatDateTime } from '@/lib/format';
import type { OrganizationIdInput } from '@/lib/query-keys';
import { toast } from '@/lib/toast';

import { exportFunnelDroppedOff, useFunnelDroppedOff } from '../api/get-funnel-dropped-off';

export type FunnelDroppedOffSheetProps = {
  organizationId: OrganizationIdInput;
  definition: FunnelDefinitionInput;
  period: FunnelPeriod;
  /** The step learners did not reach; null: the sheet is closed. */
  stepIndex: number | null;
  /** The step's words, for the title ("Answered Q2"). */
  stepLabel: string;
  onClose: () => void;
};

const columns: readonly DataTableColumn<FunnelDroppedLearner>[] = [
  { id: 'name', header: 'Name', cell: (row) => row.name ?? '—', isRowHeader: true },
  { id: 'email', header: 'E-mail', cell: (row) => <span className="break-all">{row.email}</span> },
  {
    id: 'last',
    header: 'Last step reached',
    cell: (row) => row.lastStepLabel,
    className: 'hidden sm:table-cell',
  },
  { id: 'when', header: 'When', cell: (row) => formatDateTime(row.reachedAt) },
];

/** The learners who reached the step before `stepIndex` and not `stepIndex`, by page, with a CSV of all of them. */
export function FunnelDroppedOffSheet({
  organizationId,
  definition,
  period,
  stepIndex,
  stepLabel,
  onClose,
}: FunnelDroppedOffSheetProps) {
  const [page, setPage] = useState(1);
  const [isExporting, setIsExporting] = useState(false);
  const [shownStep, setShownStep] = useState(stepIndex);
  if (shownStep !== stepIndex) {
    // Another step opened: back to its first page.
    setShownStep(stepIndex);
    setPage(1);
  }
  const query = useFunnelDroppedOff(
    organizationId,
    stepIndex === null ? null : { definition, period, stepIndex, page, pageSize: DEFAULT_PAGE_SIZE },
  );

  async function handleExport() {
    if (stepIndex === null) return;
    setIsExporting(true);
    try {
      const csv = await exportFunnelDroppedOff({ definition, period, stepIndex });
      downloadText(`funnel-dropped-off-step-${stepIndex + 1}.csv`, typeof csv === 'string' ? csv : '');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The export failed. Please try again.');
    } finally {
      setIsExporting(false);
    }
  }

  const data = query.data;
  return (
    <Sheet
      open={stepIndex !== null}
      onClose={onClose}
      title={`Dropped off before step ${(stepIndex ?? 0) + 1}`}
      description={
        <>
          Learners who reached step {stepIndex ?? 0} and not “{stepLabel}” within the window
          {data ? ` (${data.period.from} to ${data.period.to})` : ''}.
        </>
      }
      className="sm:max-w-2xl"
      footer={
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button
            variant="outline"
            onClick={() => void handleExport()}
            isLoading={isExporting}
            disabled={!data || data.total === 0}
          >
            {isExporting ? null : <Download aria-hidden="true" />}
            Export CSV
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      }
    >
      <div className="flex flex-col gap-3">
        <DataTable
          caption="Learners who dropped off"
          columns={columns}
          rows={data?.items}
          rowKey={(row) => row.learnerId}
          isLoading={query.isLoading}
          isFetching={query.isFetching && !query.isLoading}
          error={
            query.isError
              ? isApiError(query.error)
                ? query.error.message
                : 'The list could not be loaded.'
              : null
          }
          empty="Nobody dropped off at this step."
        />
        {data && data.total > data.pageSize ? (
          <Pagination
            page={page}
            pageSize={data.pageSize}
            total={data.total}
            onPageChange={setPage}
            noun="learners"
          />
        ) : null}
      </div>
    </Sheet>
  );
}
