import { createPipelineInput } from '@courselens/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';

import { useCreatePipeline } from '../api/create-pipeline';

export type NewPipelineDialogProps = {
  open: boolean;
  onClose: () => void;
  organizationId: string | undefined;
};

/** Names a new pipeline, creates it empty (and off), then opens it in the editor. */
export function NewPipelineDialog({ open, onClose, organizationId }: NewPipelineDialogProps) {
  const create = useCreatePipeline(organizationId);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  function handleClose() {
    setName('');
    setError(null);
    onClose();
  }

  async function handleSubmit() {
    const parsed = createPipelineInput.shape.name.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    try {
      const pipeline = await create.mutateAsync({ name: parsed.data, nodes: [], edges: [] });
      handleClose();
      void navigate(paths.pipelines.editor.href(pipeline.id));
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : 'The pipeline could not be created. Please try again.');
    }
  }

  return (
    <Dialog
      open={open}
      onClose={handleClose}
      title="New pipeline"
      description="It starts empty and off: add a source, the steps and an action in the editor."
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void handleSubmit();
        }}
      >
        <TextField
          label="Name"
          value={name}
          maxLength={200}
          onChange={(event) => setName(event.target.value)}
          error={error ?? undefined}
          placeholder="What the pipeline does"
          data-autofocus
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={handleClose}>
            Cancel
          </Button>
          <Button type="submit" isLoading={create.isPending}>
            Create and open
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
