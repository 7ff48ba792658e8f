import type { PipelineDetail } from '@courselens/contracts';
import { History, RotateCcw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Sheet } from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';

import { usePipelineVersions, useRestorePipelineVersion } from '../../api/get-pipeline-versions';

export type VersionsSheetProps = {
  open: boolean;
  onClose: () => void;
  organizationId: string | undefined;
  pipelineId: string;
  currentVersion: number;
  /** The restored pipeline (saved as a new version) goes on the editor. */
  onRestored: (pipeline: PipelineDetail) => void;
  /** The editor has changes a restore replaces. */
  isDirty: boolean;
  isReadOnly: boolean;
};

/** Every save of the pipeline, newest first; any of them can be put back on the editor. */
export function VersionsSheet({
  open,
  onClose,
  organizationId,
  pipelineId,
  currentVersion,
  onRestored,
  isDirty,
  isReadOnly,
}: VersionsSheetProps) {
  const versions = usePipelineVersions(organizationId, pipelineId, open);
  const restore = useRestorePipelineVersion(organizationId, pipelineId);
  const restoring = restore.isPending ? (restore.variables ?? null) : null;

  async function handleRestore(version: number) {
    try {
      const pipeline = await restore.mutateAsync(version);
      onRestored(pipeline);
      toast.success(`Version ${version} restored as version ${pipeline.version}`);
      onClose();
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The version could not be restored. Please try again.');
    }
  }

  return (
    <Sheet
      open={open}
      onClose={onClose}
      title="Versions"
      description="Every save is a version; each run records the version it ran."
    >
      {isDirty && !isReadOnly ? (
        <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-400/10 dark:text-amber-100">
          Restoring saves that version as the current one and replaces the unsaved changes on the editor (undo
          brings them back).
        </p>
      ) : null}
      {versions.isPending ? (
        <div className="flex justify-center py-10 text-fg-muted">
          <Spinner label="Loading versions" />
        </div>
      ) : versions.isError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {versions.error.message}
        </p>
      ) : versions.data.items.length === 0 ? (
        <p className="text-sm text-fg-muted">No version saved yet.</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {versions.data.items.map((item) => {
            const isCurrent = item.version === currentVersion;
            return (
              <li
                key={item.version}
                className="flex items-start justify-between gap-3 rounded-xl border border-line p-3"
              >
                <div className="flex min-w-0 gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-surface-muted text-fg-muted [&_svg]:size-4"
                  >
                    <History />
                  </span>
                  <div className="min-w-0">
                    <p className="font-medium text-fg">
                      Version {item.version}
                      {isCurrent ? (
                        <span className="ml-2 text-xs font-medium text-accent">Current</span>
                      ) : null}
                    </p>
                    <p className="text-xs text-fg-muted">
                      <time dateTime={item.createdAt} title={formatDateTime(item.createdAt)}>
                        {formatRelative(item.createdAt)}
                      </time>
                      {item.createdByName ? ` by ${item.createdByName}` : null}
                    </p>
                    <p className="text-xs text-fg-subtle">
                      {formatNumber(item.nodeCount)} {item.nodeCount === 1 ? 'node' : 'nodes'} ·{' '}
                      {formatNumber(item.runs)} {item.runs === 1 ? 'run' : 'runs'}
                    </p>
                  </div>
                </div>
                {isCurrent || isReadOnly ? null : (
                  <Button
                    variant="outline"
                    size="sm"
                    isLoading={restoring === item.version}
                    disabled={restoring !== null}
                    onClick={() => void handleRestore(item.version)}
                    aria-label={`Restore version ${item.version}`}
                  >
                    <RotateCcw aria-hidden="true" />
                    Restore
                  </Button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Sheet>
  );
}
