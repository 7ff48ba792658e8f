import { MAX_FUNNEL_NAME_LENGTH, type SavedFunnel } from '@courselens/contracts';
import { AlertTriangle, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { OrganizationIdInput } from '@/lib/query-keys';
import { toast } from '@/lib/toast';

import { useDeleteFunnel } from '../api/delete-funnel';
import { useUpdateFunnel } from '../api/update-funnel';

export type FunnelSavedListProps = {
  organizationId: OrganizationIdInput;
  funnels: readonly SavedFunnel[] | undefined;
  isLoading: boolean;
  selectedId: string | null;
  onSelect: (funnel: SavedFunnel) => void;
  onNew: () => void;
  onDeleted: (funnelId: string) => void;
};

/** The saved funnels: pick one to open it, rename it, or delete it (after a confirmation). */
export function FunnelSavedList({
  organizationId,
  funnels,
  isLoading,
  selectedId,
  onSelect,
  onNew,
  onDeleted,
}: FunnelSavedListProps) {
  const [renaming, setRenaming] = useState<SavedFunnel | null>(null);
  const [deleting, setDeleting] = useState<SavedFunnel | null>(null);

  return (
    <nav aria-label="Saved funnels" className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-fg">Saved funnels</h2>
        <Button variant="ghost" size="sm" onClick={onNew}>
          <Plus aria-hidden="true" />
          New
        </Button>
      </div>
      {isLoading ? (
        <Spinner label="Loading saved funnels" />
      ) : !funnels || funnels.length === 0 ? (
        <p className="text-sm text-fg-muted">None yet. Build a funnel and save it to find it here.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {funnels.map((funnel) => {
            const isSelected = funnel.id === selectedId;
            return (
              <li
                key={funnel.id}
                className={cn(
                  'group flex items-center gap-1 rounded-lg border border-transparent pr-1',
                  isSelected
                    ? 'border-brand-200 bg-brand-50 dark:border-brand-400/30 dark:bg-brand-400/10'
                    : 'hover:bg-slate-50 dark:hover:bg-slate-800/60',
                )}
              >
                <button
                  type="button"
                  className="min-w-0 flex-1 rounded-lg px-3 py-2 text-left text-sm focus-visible:outline-2 focus-visible:outline-focus"
                  aria-current={isSelected ? 'true' : undefined}
                  onClick={() => onSelect(funnel)}
                >
                  <span className="flex items-center gap-1.5">
                    {funnel.problem ? (
                      <AlertTriangle
                        aria-label="Needs attention"
                        className="size-3.5 shrink-0 text-amber-600"
                      />
                    ) : null}
                    <span className={cn('truncate', isSelected ? 'font-semibold text-fg' : 'text-fg')}>
                      {funnel.name}
                    </span>
                  </span>
                  {funnel.config ? (
                    <span className="block truncate text-xs text-fg-muted">
                      {funnel.config.definition.steps.length} steps
                      {funnel.description ? ` · ${funnel.description}` : ''}
                    </span>
                  ) : null}
                </button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Rename ${funnel.name}`}
                  onClick={() => setRenaming(funnel)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete ${funnel.name}`}
                  onClick={() => setDeleting(funnel)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <RenameFunnelDialog
        organizationId={organizationId}
        funnel={renaming}
        onClose={() => setRenaming(null)}
      />
      <DeleteFunnelDialog
        organizationId={organizationId}
        funnel={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={onDeleted}
      />
    </nav>
  );
}

function RenameFunnelDialog({
  organizationId,
  funnel,
  onClose,
}: {
  organizationId: OrganizationIdInput;
  funnel: SavedFunnel | null;
  onClose: () => void;
}) {
  const update = useUpdateFunnel(organizationId);
  const [name, setName] = useState('');
  const [shownId, setShownId] = useState<string | null>(null);
  if ((funnel?.id ?? null) !== shownId) {
    setShownId(funnel?.id ?? null);
    setName(funnel?.name ?? '');
  }
  const error = name.trim() === '' ? 'Name the funnel' : undefined;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!funnel || error) return;
    try {
      await update.mutateAsync({ funnelId: funnel.id, name });
      toast.success('Funnel renamed');
      onClose();
    } catch (caught) {
      toast.error(isApiError(caught) ? caught.message : 'The funnel could not be renamed. Please try again.');
    }
  }

  return (
    <Dialog open={funnel !== null} onClose={onClose} title="Rename funnel">
      <form className="flex flex-col gap-4" onSubmit={(event) => void handleSubmit(event)}>
        <TextField
          label="Name"
          value={name}
          maxLength={MAX_FUNNEL_NAME_LENGTH}
          onChange={(event) => setName(event.target.value)}
          error={name === '' ? undefined : error}
          required
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" isLoading={update.isPending} disabled={Boolean(error)}>
            Rename
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteFunnelDialog({
  organizationId,
  funnel,
  onClose,
  onDeleted,
}: {
  organizationId: OrganizationIdInput;
  funnel: SavedFunnel | null;
  onClose: () => void;
  onDeleted: (funnelId: string) => void;
}) {
  const remove = useDeleteFunnel(organizationId);

  async function handleDelete() {
    if (!funnel) return;
    try {
      await remove.mutateAsync(funnel.id);
      toast.success(`Funnel “${funnel.name}” deleted`);
      onDeleted(funnel.id);
      onClose();
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The funnel could not be deleted. Please try again.');
    }
  }

  return (
    <Dialog
      open={funnel !== null}
      onClose={onClose}
      title="Delete this funnel?"
      description={
        <>“{funnel?.name}” is deleted for everyone in your organization. The learning data stays.</>
      }
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void handleDelete()} isLoading={remove.isPending}>
          Delete funnel
        </Button>
      </div>
    </Dialog>
  );
}

/** Asks for the name of a funnel being saved. */
export function SaveFunnelDialog({
  open,
  initialName,
  isSaving,
  onClose,
  onSave,
}: {
  open: boolean;
  initialName: string;
  isSaving: boolean;
  onClose: () => void;
  onSave: (name: string) => void;
}) {
  const [name, setName] = useState(initialName);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setName(initialName);
  }
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() !== '') onSave(name);
  }
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Save funnel"
      description="Everyone in your organization can open it."
    >
      <form className="flex flex-col gap-4" onSubmit={handleSubmit}>
        <TextField
          label="Name"
          value={name}
          maxLength={MAX_FUNNEL_NAME_LENGTH}
          onChange={(event) => setName(event.target.value)}
          required
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" isLoading={isSaving} disabled={name.trim() === ''}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
