import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { isApiError } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import type { OrganizationIdInput } from '@/lib/query-keys';
import { toast } from '@/lib/toast';

import { useDeleteChatbot } from '../api/delete-chatbot';

export type DeleteChatbotDialogProps = {
  chatbot: { id: string; name: string; conversations?: number } | null;
  organizationId: OrganizationIdInput;
  onClose: () => void;
  onDeleted?: () => void;
};

/** Asks before deleting an agent: its conversations and the values it captured go with it. */
export function DeleteChatbotDialog({
  chatbot,
  organizationId,
  onClose,
  onDeleted,
}: DeleteChatbotDialogProps) {
  const remove = useDeleteChatbot(organizationId);
  const conversations = chatbot?.conversations ?? 0;

  async function handleDelete() {
    if (!chatbot) return;
    try {
      await remove.mutateAsync(chatbot.id);
      toast.success(`Agent “${chatbot.name}” deleted`);
      onClose();
      onDeleted?.();
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The agent could not be deleted. Please try again.');
    }
  }

  return (
    <Dialog
      open={chatbot !== null}
      onClose={onClose}
      title="Delete this agent?"
      description={
        <>
          “{chatbot?.name}” is deleted for everyone in your organization
          {conversations > 0
            ? `, with its ${formatNumber(conversations)} ${conversations === 1 ? 'conversation' : 'conversations'}`
            : ''}{' '}
          and the values it captured. Pages that embed it stop answering. This cannot be undone.
        </>
      }
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void handleDelete()} isLoading={remove.isPending}>
          Delete agent
        </Button>
      </div>
    </Dialog>
  );
}
