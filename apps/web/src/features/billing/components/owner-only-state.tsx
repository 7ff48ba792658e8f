import { Lock } from 'lucide-react';

import { Card } from '@/components/ui/card';

export type OwnerOnlyStateProps = {
  /** The server's reason ("Only owners can manage billing"). */
  reason: string;
};

/** What a team member sees on the billing screens: why not, and whom to ask. Nothing is fetched. */
export function OwnerOnlyState({ reason }: OwnerOnlyStateProps) {
  return (
    <Card
      className="flex flex-col items-center px-6 py-12 text-center"
      data-testid="billing-owner-only"
      role="status"
    >
      <div className="mb-4 flex size-12 items-center justify-center rounded-2xl bg-surface-muted text-fg-subtle ring-1 ring-line">
        <Lock aria-hidden="true" className="size-6" />
      </div>
      <p className="text-lg font-semibold text-fg">{reason}</p>
      <p className="mt-2 max-w-md text-sm text-pretty text-fg-muted">
        The plan, its usage and the invoices are shown to the owners of your organization. Ask an owner if you
        need more learners, courses or AI agents.
      </p>
    </Card>
  );
}
