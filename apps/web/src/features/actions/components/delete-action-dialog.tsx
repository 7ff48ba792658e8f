import { Workflow } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { isApiError } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';
import { toast } from '@/lib/toast';

import { useDeleteAction } from '../api/delete-action';

export type DeleteActionDialogProps = {
  action: { id: string; name: string; usedByPipelines: number } | null;
  organizationId: OrganizationIdInput;
  onClose: () => void;
  onDeleted?: () => void;
};

/** Asks before deleting an action; one that pipelines use cannot be deleted, and the dialog says why. */
export function DeleteActionDialog({ action, organizationId, onClose, onDeleted }: DeleteActionDialogProps) {
  const remove = useDeleteAction(organizationId);
  const isUsed = (action?.usedByPipelines ?? 0) > 0;

  async function handleDelete() {
    if (!action) return;
    try {
      await remove.mutateAsync(action.id);
      toast.success(`Action “${action.name}” deleted`);
      onClose();
      onDeleted?.();
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The action could not be deleted. Please try again.');
    }
  }

  return (
    <Dialog
      open={action !== null}
      onClose={onClose}
      title={isUsed ? 'This action is in use' : 'Delete this action?'}
      description={
        isUsed ? (
          <>
            “{action?.name}” runs in {action?.usedByPipelines}{' '}
            {action?.usedByPipelines === 1 ? 'pipeline' : 'pipelines'}. Remove it from them first, then delete
            it.
          </>
        ) : (
          <>“{action?.name}” is deleted for everyone in your organization. This cannot be undone.</>
        )
      }
    >
      {isUsed ? (
        <p className="mb-4 flex items-center gap-2 text-sm text-fg-muted">
          <Workflow aria-hidden="true" className="size-4" />A pipeline would stop at this step otherwise.
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          {isUsed ? 'Close' : 'Cancel'}
        </Button>
        {isUsed ? null : (
          <Button variant="danger" onClick={() => void handleDelete()} isLoading={remove.isPending}>
            Delete action
          </Button>
        )}
      </div>
    </Dialog>
  );
}
