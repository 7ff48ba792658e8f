import { MAX_VARIABLE_DESCRIPTION_LENGTH, type VariableListItem } from '@courselens/contracts';
import { useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';

import { useUpdateVariable } from '../api/update-variable';

export type EditDescriptionDialogProps = {
  organizationId: string | null | undefined;
  /** The variable to describe; null closes the dialog. */
  variable: VariableListItem | null;
  onClose: () => void;
};

/**
 * Edits a variable's description. The update names the variable (id and the
 * name shown), so a variable renamed meanwhile is refused and the server's
 * message stays in the dialog.
 */
export function EditDescriptionDialog({ organizationId, variable, onClose }: EditDescriptionDialogProps) {
  return (
    <Dialog
      open={variable !== null}
      onClose={onClose}
      title="Edit description"
      description={
        variable ? (
          <>
            What <code className="font-mono text-fg">{variable.name}</code> means, for your team and your
            reports.
          </>
        ) : null
      }
    >
      {variable ? (
        <DescriptionForm
          key={variable.id}
          organizationId={organizationId}
          variable={variable}
          onClose={onClose}
        />
      ) : null}
    </Dialog>
  );
}

function DescriptionForm({
  organizationId,
  variable,
  onClose,
}: {
  organizationId: string | null | undefined;
  variable: VariableListItem;
  onClose: () => void;
}) {
  const fieldId = useId();
  const [draft, setDraft] = useState(variable.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const updateVariable = useUpdateVariable(organizationId);
  const length = draft.trim().length;
  const isTooLong = length > MAX_VARIABLE_DESCRIPTION_LENGTH;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isTooLong) return;
    setError(null);
    updateVariable.mutate(
      { variableId: variable.id, name: variable.name, description: draft.trim() },
      {
        onSuccess: () => {
          toast.success(`Description of ${variable.name} saved`);
          onClose();
        },
        onError: (cause) =>
          setError(isApiError(cause) ? cause.message : 'The description could not be saved.'),
      },
    );
  }

  const errorId = `${fieldId}-error`;
  const countId = `${fieldId}-count`;
  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-4" noValidate>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fieldId} className="text-sm font-medium text-fg">
          Description
        </label>
        <textarea
          id={fieldId}
          data-autofocus
          rows={5}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          aria-invalid={isTooLong || error ? true : undefined}
          aria-describedby={[countId, error ? errorId : ''].filter(Boolean).join(' ')}
          placeholder="What this variable measures and how to read it"
          className={cn(
            'block w-full rounded-lg border border-line-strong bg-surface px-3 py-2 text-sm text-fg shadow-xs',
            'placeholder:text-fg-subtle focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-focus',
            'aria-invalid:border-rose-500 dark:aria-invalid:border-rose-400',
          )}
        />
        <p
          id={countId}
          className={cn('text-xs', isTooLong ? 'text-rose-600 dark:text-rose-400' : 'text-fg-muted')}
        >
          {isTooLong
            ? `Description must be at most ${MAX_VARIABLE_DESCRIPTION_LENGTH} characters long (${length} now)`
            : `${length} / ${MAX_VARIABLE_DESCRIPTION_LENGTH} characters. Leave empty to clear it.`}
        </p>
        {error ? (
          <p id={errorId} role="alert" className="text-sm text-rose-600 dark:text-rose-400">
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" isLoading={updateVariable.isPending} disabled={isTooLong}>
          Save description
        </Button>
      </div>
    </form>
  );
}
