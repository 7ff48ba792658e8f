import { planById, type BillingOverview } from '@courselens/contracts';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

import { countOf, formatLongDate } from './billing-format';

export type ConfirmFreeDialogProps = {
  open: boolean;
  overview: BillingOverview;
  /** What the confirming button says ("Cancel subscription", "Move to Free"). */
  confirmLabel: string;
  isPending: boolean;
  /** The server's refusal (e.g. what would have to go first), shown in the dialog. */
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
};

const free = planById('free');
const freeLimits = `${countOf('learners', free.limits.maxLearners)}, ${countOf(
  'courses',
  free.limits.maxCourses,
)} and ${countOf('chatbots', free.limits.maxChatbots)}`;

/**
 * Asks before the paid plan ends, saying when (Stripe: at the end of the
 * period paid for; the local provider: at once) and what the Free plan allows.
 */
export function ConfirmFreeDialog({
  open,
  overview,
  confirmLabel,
  isPending,
  error,
  onConfirm,
  onClose,
}: ConfirmFreeDialogProps) {
  const planName = overview.plan.name;
  const atPeriodEnd = overview.provider === 'stripe' && overview.renewsAt !== null;
  return (
    <Dialog
      open={open}
      onClose={isPending ? () => {} : onClose}
      title={`End the ${planName} plan?`}
      description={
        atPeriodEnd
          ? `The ${planName} plan stays until ${formatLongDate(overview.renewsAt)}, the end of the period already paid for. Then your organization moves to the Free plan: ${freeLimits}.`
          : `Your organization moves to the Free plan at once: ${freeLimits}.${
              overview.provider === 'local' ? ' Nothing is charged or refunded with the local provider.' : ''
            }`
      }
    >
      {error ? (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-400/25 dark:bg-rose-400/10 dark:text-rose-200"
        >
          {error}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={isPending}>
          Keep {planName}
        </Button>
        <Button variant="danger" onClick={onConfirm} isLoading={isPending}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
