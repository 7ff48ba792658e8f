import {
  planCap,
  plans,
  type BillingInterval,
  type BillingOverview,
  type Plan,
  type PlanId,
} from '@courselens/contracts';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { PlanCard } from '@/components/plan-card';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { useCanManage } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { useCheckout } from '../api/checkout';
import { useBillingOverview } from '../api/get-billing-overview';
import { BillingFrame } from './billing-frame';
import { INTERVAL_WORDS, countOf, formatLongDate } from './billing-format';
import { BillingNote } from './billing-note';
import { BillingOverviewGate, BillingSkeleton, LOCAL_PROVIDER_SENTENCE } from './billing-states';
import { ConfirmFreeDialog } from './confirm-free-dialog';

/** What a plan's button says: "Choose Team", "Move to Free". */
export function choosePlanLabel(plan: Plan): string {
  return plan.id === 'free' ? 'Move to Free' : `Choose ${plan.name}`;
}

/** What the organization uses beyond a plan's caps now ("5 courses; this plan allows 3"), for a warning. */
export function usageAbovePlan(overview: BillingOverview, plan: Plan): string[] {
  return overview.meters
    .filter((meter) => meter.used > planCap(plan, meter.metric))
    .map(
      (meter) =>
        `Your organization has ${countOf(meter.metric, meter.used)}; this plan allows ${formatNumber(
          planCap(plan, meter.metric),
        )}.`,
    );
}

/**
 * `/subscribe` (owners): the plans of the pricing page, monthly or yearly,
 * the current one marked. Choosing one checks out: the plan changes at once
 * (local provider, or an existing Stripe subscription) or the owner pays on
 * Stripe's page. A refusal (what would have to go first) shows on the plan.
 */
export function SubscribePage() {
  const organizationId = useSession().currentOrganization?.id;
  const permission = useCanManage('billing');
  const overview = useBillingOverview(permission.isAllowed ? organizationId : null);
  return (
    <BillingFrame
      title="Choose a plan"
      description="The same plans and limits as on the pricing page. Prices in US dollars."
      actions={
        <Link to={paths.billing.href()} className={buttonClassName({ variant: 'outline' })}>
          <ArrowLeft aria-hidden="true" />
          Back to Billing
        </Link>
      }
    >
      <BillingOverviewGate
        permissionReason={permission.reason}
        overview={overview}
        errorWhat="Your current plan could not be loaded."
        loading={<BillingSkeleton label="Loading the plans" variant="plans" />}
      >
        {(data) => <PlanChooser overview={data} organizationId={organizationId} />}
      </BillingOverviewGate>
    </BillingFrame>
  );
}

export type IntervalToggleProps = {
  value: BillingInterval;
  onChange: (value: BillingInterval) => void;
};

/** Monthly or yearly prices: one choice of two, as radio buttons drawn as a segmented control. */
export function IntervalToggle({ value, onChange }: IntervalToggleProps) {
  return (
    <fieldset>
      <legend className="sr-only">Billing period</legend>
      <div className="grid w-full grid-cols-2 gap-1 rounded-xl border border-line bg-surface-muted p-1 sm:inline-grid sm:w-auto">
        {(['month', 'year'] as const).map((interval) => {
          const isChecked = value === interval;
          return (
            <label
              key={interval}
              className={cn(
                'relative flex cursor-pointer flex-wrap items-center justify-center gap-x-2 gap-y-1 rounded-lg px-3 py-2 text-sm font-medium transition-colors sm:px-4',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-focus',
                isChecked ? 'bg-surface text-fg shadow-sm ring-1 ring-line' : 'text-fg-muted hover:text-fg',
              )}
            >
              <input
                type="radio"
                name="billing-interval"
                value={interval}
                checked={isChecked}
                onChange={() => onChange(interval)}
                // Over the whole segment, invisible: the segment is the radio button, for pointer and keyboard alike.
                className="absolute inset-0 size-full cursor-pointer appearance-none rounded-lg opacity-0"
              />
              {INTERVAL_WORDS[interval].adjective}
              {interval === 'year' ? <Badge variant="success">2 months free</Badge> : null}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

type PlanChooserProps = { overview: BillingOverview; organizationId: string | undefined };

function PlanChooser({ overview, organizationId }: PlanChooserProps) {
  const navigate = useNavigate();
  const checkout = useCheckout(organizationId);
  const [interval, setBillingInterval] = useState<BillingInterval>(overview.interval ?? 'month');
  const [chosen, setChosen] = useState<PlanId | null>(null);
  const [isLeaving, setIsLeaving] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<PlanId, string>>>({});
  const [isFreeDialogOpen, setIsFreeDialogOpen] = useState(false);
  const currentPlan = overview.plan.id;
  const isBusy = checkout.isPending || isLeaving;

  function handleChoose(plan: Plan) {
    setErrors({});
    setChosen(plan.id);
    // Ending a paid plan is asked first: it lowers the limits (at once with the local provider).
    if (plan.id === 'free') {
      setIsFreeDialogOpen(true);
      return;
    }
    submit(plan);
  }

  function submit(plan: Plan) {
    checkout.mutate(
      { plan: plan.id, interval },
      {
        onSuccess: (result) => {
          if (result.kind === 'redirect') {
            setIsLeaving(true);
            window.location.assign(result.url);
            return;
          }
          const next = result.overview;
          toast.success(
            next.plan.id === plan.id
              ? `Your organization is now on the ${next.plan.name} plan.`
              : next.cancelAtPeriodEnd
                ? `Your ${next.plan.name} plan ends on ${formatLongDate(next.renewsAt)}; then your organization moves to Free.`
                : `Your organization is on the ${next.plan.name} plan.`,
          );
          setIsFreeDialogOpen(false);
          void navigate(paths.billing.href());
        },
        onError: (error) => {
          const message = isApiError(error) ? error.message : 'Something went wrong. Please try again.';
          setErrors({ [plan.id]: message });
        },
      },
    );
  }

  const freePlan = plans.find((plan) => plan.id === 'free');

  return (
    <div className="flex flex-col gap-6">
      {overview.provider === 'local' ? (
        <BillingNote data-testid="local-provider-note">{LOCAL_PROVIDER_SENTENCE}</BillingNote>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <IntervalToggle value={interval} onChange={setBillingInterval} />
        <p className="text-sm text-fg-muted">
          Yearly billing charges ten months for twelve.
          {overview.cancelAtPeriodEnd
            ? ` Your ${overview.plan.name} plan ends on ${formatLongDate(overview.renewsAt)}.`
            : ''}
        </p>
      </div>
      <ul className="grid gap-6 lg:grid-cols-3">
        {plans.map((plan) => {
          const isCurrent = plan.id === currentPlan;
          // The same plan can still be chosen with the other interval, or kept when it is set to end.
          const isSameChoice =
            isCurrent &&
            (plan.id === 'free' || overview.interval === interval) &&
            !overview.cancelAtPeriodEnd;
          const label = !isCurrent
            ? choosePlanLabel(plan)
            : isSameChoice
              ? 'Current plan'
              : overview.cancelAtPeriodEnd && overview.interval === interval
                ? `Keep ${plan.name}`
                : `Switch to ${interval === 'year' ? 'yearly' : 'monthly'} billing`;
          const error = plan.id === 'free' ? undefined : errors[plan.id];
          const errorId = `plan-${plan.id}-error`;
          const warnings = isCurrent ? [] : usageAbovePlan(overview, plan);
          return (
            <li key={plan.id} data-testid={`plan-${plan.id}`}>
              <PlanCard
                plan={plan}
                interval={interval}
                headingLevel="h2"
                badge={isCurrent ? <Badge variant="brand">Current plan</Badge> : undefined}
                isHighlighted={isCurrent}
                footer={
                  <div className="flex flex-col gap-3">
                    <Button
                      className="w-full"
                      variant={isSameChoice || plan.id === 'free' ? 'outline' : 'primary'}
                      disabled={isSameChoice || (isBusy && chosen !== plan.id)}
                      isLoading={isBusy && chosen === plan.id && !isFreeDialogOpen}
                      aria-describedby={error ? errorId : undefined}
                      onClick={() => handleChoose(plan)}
                    >
                      {label}
                    </Button>
                    {error ? (
                      <p
                        id={errorId}
                        role="alert"
                        className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-400/25 dark:bg-rose-400/10 dark:text-rose-200"
                      >
                        {error}
                      </p>
                    ) : null}
                  </div>
                }
              >
                {warnings.length > 0 ? (
                  <ul className="mt-6 flex flex-col gap-1 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-400/10 dark:text-amber-100">
                    {warnings.map((warning) => (
                      <li key={warning}>{warning}</li>
                    ))}
                  </ul>
                ) : null}
              </PlanCard>
            </li>
          );
        })}
      </ul>
      {freePlan && currentPlan !== 'free' ? (
        <ConfirmFreeDialog
          open={isFreeDialogOpen}
          overview={overview}
          confirmLabel="Move to Free"
          isPending={checkout.isPending}
          error={errors.free ?? null}
          onConfirm={() => submit(freePlan)}
          onClose={() => {
            setIsFreeDialogOpen(false);
            setErrors({});
          }}
        />
      ) : null}
    </div>
  );
}
