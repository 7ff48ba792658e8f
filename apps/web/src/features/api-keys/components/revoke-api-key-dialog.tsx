import type { ApiKeyBody } from '@courselens/contracts';

import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { useRevokeApiKey } from '../api/revoke-api-key';

import { Dialog } from '@/components/ui/dialog';

export type RevokeApiKeyDialogProps = {
  apiKey: ApiKeyBody | null;
  organizationId: string | null | undefined;
  onClose: () => void;
};

/** Asks before revoking: a revoked key fails at once for every course and script using it. */
export function RevokeApiKeyDialog({ apiKey, organizationId, onClose }: RevokeApiKeyDialogProps) {
  const revokeApiKey = useRevokeApiKey(organizationId);

  async function handleRevoke() {
    if (!apiKey) return;
    try {
      await revokeApiKey.mutateAsync(apiKey.id);
      toast.success(`API key “${apiKey.name}” revoked`);
      onClose();
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    }
  }

  return (
    <Dialog
      open={apiKey !== null}
      onClose={onClose}
      title="Revoke this API key?"
      description={
        <>
          Courses and scripts using <strong className="font-semibold text-fg">{apiKey?.name}</strong> (
          <code className="font-mono text-xs">{apiKey?.prefix}…</code>) stop working at once. This cannot be
          undone.
        </>
      }
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} data-autofocus>
          Cancel
        </Button>
        <Button variant="danger" isLoading={revokeApiKey.isPending} onClick={() => void handleRevoke()}>
          Revoke key
        </Button>
      </div>
    </Dialog>
  );
}
