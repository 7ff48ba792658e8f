import {
  planById,
  planPrice,
  type BillingInvoice,
  type BillingNotice,
  type BillingOverview,
  type SubscriptionStatus,
} from '@courselens/contracts';
import { Bell, Check, CreditCard, ExternalLink, FileText } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { formatDate, formatDateTime } from '@/lib/format';
import { useCanManage } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { useCancelSubscription } from '../api/cancel-subscription';
import { useBillingInvoices } from '../api/get-billing-invoices';
import { useBillingOverview } from '../api/get-billing-overview';
import { useOpenBillingPortal } from '../api/open-billing-portal';
import { BillingFrame } from './billing-frame';
import { INTERVAL_WORDS, formatInvoiceAmount, formatLongDate, formatPlanPrice } from './billing-format';
import { BillingNote } from './billing-note';
import { BillingOverviewGate, BillingSkeleton, LOCAL_PROVIDER_SENTENCE } from './billing-states';
import { ConfirmFreeDialog } from './confirm-free-dialog';
import { UsageMeter } from './usage-meter';

/** What the owner is told on coming back from Stripe Checkout (`?checkout=`). */
export const CHECKOUT_RETURN_MESSAGES = {
  success: 'Payment received: your plan changes as soon as Stripe confirms it.',
  canceled: 'Checkout canceled: nothing changed.',
} as const;

type CheckoutReturn = keyof typeof CHECKOUT_RETURN_MESSAGES;

function isCheckoutReturn(value: string | null): value is CheckoutReturn {
  return value === 'success' || value === 'canceled';
}

/**
 * Coming back from Stripe Checkout: says what happened once (a toast, and a
 * note on the page while the plan waits for Stripe's confirmation) and takes
 * `?checkout=` out of the address, so a reload does not say it again.
 */
function useCheckoutReturn(): { notice: CheckoutReturn | null; dismiss: () => void } {
  const [searchParams, setSearchParams] = useSearchParams();
  const returned = searchParams.get('checkout');
  // Stripe sends the owner back to this page, so the address it opens with says what happened.
  const [notice, setNotice] = useState<CheckoutReturn | null>(() =>
    isCheckoutReturn(returned) ? returned : null,
  );
  useEffect(() => {
    if (!isCheckoutReturn(returned)) return;
    const message = CHECKOUT_RETURN_MESSAGES[returned];
    if (returned === 'success') toast.success(message, { toastId: 'checkout-return' });
    else toast.info(message, { toastId: 'checkout-return' });
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete('checkout');
        return next;
      },
      { replace: true },
    );
  }, [returned, setSearchParams]);
  const dismiss = useCallback(() => setNotice(null), []);
  return { notice, dismiss };
}

/**
 * Back from a paid Checkout, the page waits for Stripe's confirmation (the
 * overview is polled meanwhile): when the plan it first showed changes, the
 * owner is told and the waiting note goes.
 */
function usePlanConfirmation(
  data: BillingOverview | undefined,
  checkoutReturn: { notice: CheckoutReturn | null; dismiss: () => void },
) {
  const firstPlan = useRef<string | null>(null);
  const planKey = data ? `${data.plan.id}:${data.interval ?? ''}` : null;
  const { notice, dismiss } = checkoutReturn;
  useEffect(() => {
    if (!planKey || !data) return;
    if (firstPlan.current === null) {
      firstPlan.current = planKey;
      return;
    }
    if (notice === 'success' && planKey !== firstPlan.current) {
      toast.success(`Your organization is now on the ${data.plan.name} plan.`, {
        toastId: 'checkout-confirmed',
      });
      dismiss();
    }
  }, [planKey, data, notice, dismiss]);
}

/**
 * `/billing` (owners): the plan and its subscription, the meters against
 * the caps with their forecast, the notices, the card and the invoices.
 * A team member is told that only owners see it, and nothing is fetched.
 */
export function BillingPage() {
  const organizationId = useSession().currentOrganization?.id;
  const permission = useCanManage('billing');
  const checkoutReturn = useCheckoutReturn();
  const overview = useBillingOverview(permission.isAllowed ? organizationId : null, {
    awaitingConfirmation: checkoutReturn.notice === 'success',
  });
  usePlanConfirmation(overview.data, checkoutReturn);
  const [isCancelOpen, setIsCancelOpen] = useState(false);
  const data = overview.data;

  const actions =
    data && permission.isAllowed ? (
      <>
        <Link to={paths.subscribe.href()} className={buttonClassName()}>
          Change plan
        </Link>
        {data.plan.id !== 'free' && !data.cancelAtPeriodEnd ? (
          <Button variant="outline" onClick={() => setIsCancelOpen(true)}>
            Cancel subscription
          </Button>
        ) : null}
      </>
    ) : null;

  return (
    <BillingFrame
      title="Billing"
      description="Your plan, what your organization uses of it, and your invoices."
      actions={actions}
    >
      {checkoutReturn.notice === 'success' ? (
        <BillingNote
          role="status"
          className="mb-6"
          data-testid="checkout-return"
          action={
            <Button variant="ghost" size="sm" onClick={checkoutReturn.dismiss}>
              Dismiss
            </Button>
          }
        >
          {CHECKOUT_RETURN_MESSAGES.success}
        </BillingNote>
      ) : null}
      <BillingOverviewGate
        permissionReason={permission.reason}
        overview={overview}
        errorWhat="Billing could not be loaded."
        loading={<BillingSkeleton label="Loading billing" />}
      >
        {(data) => (
          <>
            <BillingOverviewView overview={data} organizationId={organizationId} />
            <CancelDialog
              open={isCancelOpen}
              overview={data}
              organizationId={organizationId}
              onClose={() => setIsCancelOpen(false)}
            />
          </>
        )}
      </BillingOverviewGate>
    </BillingFrame>
  );
}

type CancelDialogProps = {
  open: boolean;
  overview: BillingOverview;
  organizationId: string | undefined;
  onClose: () => void;
};

function CancelDialog({ open, overview, organizationId, onClose }: CancelDialogProps) {
  const cancel = useCancelSubscription(organizationId);
  const [error, setError] = useState<string | null>(null);

  function handleClose() {
    setError(null);
    onClose();
  }

  function handleConfirm() {
    setError(null);
    cancel.mutate(undefined, {
      onSuccess: (next) => {
        toast.success(
          next.cancelAtPeriodEnd
            ? `Your ${next.plan.name} plan ends on ${formatLongDate(next.renewsAt)}; until then nothing changes.`
            : `Your organization is now on the ${next.plan.name} plan.`,
        );
        handleClose();
      },
      onError: (refusal) =>
        setError(isApiError(refusal) ? refusal.message : 'Something went wrong. Please try again.'),
    });
  }

  return (
    <ConfirmFreeDialog
      open={open}
      overview={overview}
      confirmLabel="Cancel subscription"
      isPending={cancel.isPending}
      error={error}
      onConfirm={handleConfirm}
      onClose={handleClose}
    />
  );
}

type BillingOverviewViewProps = { overview: BillingOverview; organizationId: string | undefined };

function BillingOverviewView({ overview, organizationId }: BillingOverviewViewProps) {
  const isStripe = overview.provider === 'stripe';
  return (
    <div className="flex flex-col gap-6">
      {overview.provider === 'local' ? (
        <BillingNote data-testid="local-provider-note">{LOCAL_PROVIDER_SENTENCE}</BillingNote>
      ) : null}
      {overview.status === 'past_due' ? (
        <BillingNote
          tone="danger"
          role="alert"
          title="The last payment failed"
          action={<PortalButton label="Update the card" />}
        >
          The {overview.plan.name} plan’s limits stay until {formatLongDate(overview.paymentGraceEndsAt)}.
          Update the payment method before then, or your organization moves to the Free plan’s limits.
        </BillingNote>
      ) : null}
      {overview.learnerGrace ? <LearnerGraceNote grace={overview.learnerGrace} /> : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <CurrentPlanCard overview={overview} />
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Usage</CardTitle>
            <CardDescription>
              What your organization uses of the plan’s limits, and where it is heading.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-6">
            {overview.meters.map((meter) => (
              <UsageMeter key={meter.metric} meter={meter} />
            ))}
          </CardContent>
        </Card>
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <NoticesCard notices={overview.notices} className={isStripe ? 'lg:col-span-2' : 'lg:col-span-3'} />
        {isStripe ? <PaymentMethodCard overview={overview} /> : null}
      </div>

      <InvoicesSection organizationId={organizationId} />
    </div>
  );
}

const statusBadge: Record<SubscriptionStatus, { label: string; variant: BadgeVariant }> = {
  active: { label: 'Active', variant: 'success' },
  past_due: { label: 'Payment failed', variant: 'danger' },
  canceled: { label: 'Canceled', variant: 'neutral' },
};

function CurrentPlanCard({ overview }: { overview: BillingOverview }) {
  const plan = planById(overview.plan.id);
  const interval = overview.interval ?? 'month';
  const price = planPrice(plan, interval);
  const status = overview.cancelAtPeriodEnd
    ? { label: `Ends on ${formatLongDate(overview.renewsAt)}`, variant: 'warning' as const }
    : statusBadge[overview.status];
  return (
    <Card data-testid="current-plan">
      <CardHeader>
        <CardTitle>Current plan</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-2xl font-bold tracking-tight text-fg" data-testid="current-plan-name">
              {overview.plan.name}
            </p>
            <Badge variant={status.variant} dot>
              {status.label}
            </Badge>
          </div>
          {price !== null && price > 0 ? (
            <p className="mt-1 text-sm text-fg-muted">
              {formatPlanPrice(plan, interval)} / {INTERVAL_WORDS[interval].per}
              {overview.provider === 'local' ? ' (not charged)' : ''}
            </p>
          ) : null}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-fg-subtle">Provider</dt>
          <dd className="text-fg">{overview.provider === 'stripe' ? 'Stripe' : 'Local (no payments)'}</dd>
          {overview.provider === 'stripe' && overview.interval ? (
            <>
              <dt className="text-fg-subtle">Billing</dt>
              <dd className="text-fg">{INTERVAL_WORDS[overview.interval].adjective}</dd>
            </>
          ) : null}
          {overview.renewsAt ? (
            <>
              <dt className="text-fg-subtle">{overview.cancelAtPeriodEnd ? 'Ends on' : 'Renews on'}</dt>
              <dd className="text-fg">{formatLongDate(overview.renewsAt)}</dd>
            </>
          ) : null}
          {overview.status === 'past_due' && overview.paymentGraceEndsAt ? (
            <>
              <dt className="text-fg-subtle">Limits kept until</dt>
              <dd className="text-fg">{formatLongDate(overview.paymentGraceEndsAt)}</dd>
            </>
          ) : null}
        </dl>
        {overview.features.length > 0 ? (
          <div>
            <h3 className="text-sm font-semibold text-fg">Included</h3>
            <ul className="mt-2 flex flex-col gap-2 text-sm">
              {overview.features.map((feature) => (
                <li key={feature} className="flex gap-2 text-fg">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
                  {feature}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function LearnerGraceNote({ grace }: { grace: NonNullable<BillingOverview['learnerGrace']> }) {
  if (grace.ended) {
    return (
      <BillingNote
        tone="danger"
        role="alert"
        title="New learners are refused"
        action={<UpgradeLink />}
        data-testid="learner-grace"
      >
        The learner limit was reached on {formatLongDate(grace.startedAt)} and the grace period ended on{' '}
        {formatLongDate(grace.endsAt)}: events of new learners are refused. Data of existing learners is still
        stored.
      </BillingNote>
    );
  }
  return (
    <BillingNote
      tone="warning"
      role="status"
      title="Learner limit reached"
      action={<UpgradeLink />}
      data-testid="learner-grace"
    >
      The learner limit was reached on {formatLongDate(grace.startedAt)}. New learners are still stored until{' '}
      {formatLongDate(grace.endsAt)}; upgrade the plan to keep adding them after that.
    </BillingNote>
  );
}

function UpgradeLink() {
  return (
    <Link to={paths.subscribe.href()} className={buttonClassName({ variant: 'outline', size: 'sm' })}>
      Upgrade the plan
    </Link>
  );
}

/** Newest first, whatever order they arrive in. */
export function sortNotices(notices: readonly BillingNotice[]): BillingNotice[] {
  return [...notices].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

function NoticesCard({ notices, className }: { notices: readonly BillingNotice[]; className?: string }) {
  const sorted = sortNotices(notices);
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Notices</CardTitle>
        <CardDescription>Sent to owners when usage passes 80, 90 and 100 % of a limit.</CardDescription>
      </CardHeader>
      <CardContent>
        {sorted.length === 0 ? (
          <EmptyState icon={<Bell aria-hidden="true" />} title="No notices">
            Your organization has not come close to a limit in this billing period.
          </EmptyState>
        ) : (
          <ol className="flex flex-col divide-y divide-line" aria-label="Notices, newest first">
            {sorted.map((notice) => (
              <li
                key={notice.id}
                className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:gap-4"
              >
                <Badge
                  variant={notice.threshold >= 100 ? 'danger' : 'warning'}
                  className="self-start tabular-nums"
                >
                  {notice.threshold} %
                </Badge>
                <p className="min-w-0 flex-1 text-sm text-fg">{notice.message}</p>
                <time dateTime={notice.createdAt} className="shrink-0 text-xs text-fg-subtle sm:pt-0.5">
                  {formatDateTime(notice.createdAt)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** Opens the Stripe Customer Portal (card, invoices) in place of this page. */
function PortalButton({ label = 'Manage in Stripe' }: { label?: string }) {
  const portal = useOpenBillingPortal();
  const [isLeaving, setIsLeaving] = useState(false);
  function handleClick() {
    portal.mutate(undefined, {
      onSuccess: ({ url }) => {
        setIsLeaving(true);
        window.location.assign(url);
      },
      onError: (error) =>
        toast.error(isApiError(error) ? error.message : 'The Stripe portal could not be opened.'),
    });
  }
  return (
    <Button variant="outline" size="sm" onClick={handleClick} isLoading={portal.isPending || isLeaving}>
      <ExternalLink aria-hidden="true" />
      {label}
    </Button>
  );
}

function PaymentMethodCard({ overview }: { overview: BillingOverview }) {
  const card = overview.paymentMethod;
  return (
    <Card data-testid="payment-method">
      <CardHeader>
        <CardTitle>Payment method</CardTitle>
        <CardDescription>Stripe keeps the card; change it there.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col items-start gap-4">
        {card ? (
          <div className="flex items-center gap-3">
            <div className="flex size-10 items-center justify-center rounded-lg bg-surface-muted text-fg-muted ring-1 ring-line">
              <CreditCard aria-hidden="true" className="size-5" />
            </div>
            <div className="text-sm">
              <p className="font-medium text-fg">
                <span className="capitalize">{card.brand}</span> <span aria-hidden="true">••••</span>
                <span className="sr-only">ending in</span> {card.last4}
              </p>
              <p className="text-fg-muted">
                Expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
              </p>
            </div>
          </div>
        ) : (
          <p className="text-sm text-fg-muted">No card on file yet.</p>
        )}
        <PortalButton />
      </CardContent>
    </Card>
  );
}

const invoiceColumns: readonly DataTableColumn<BillingInvoice>[] = [
  {
    id: 'date',
    header: 'Date',
    isRowHeader: true,
    cell: (invoice) => <time dateTime={invoice.createdAt}>{formatDate(invoice.createdAt)}</time>,
  },
  {
    id: 'number',
    header: 'Number',
    className: 'hidden sm:table-cell',
    cell: (invoice) => invoice.number ?? '—',
  },
  {
    id: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (invoice) => formatInvoiceAmount(invoice.amountDue, invoice.currency),
  },
  {
    id: 'status',
    header: 'Status',
    cell: (invoice) => (
      <Badge
        variant={invoice.status === 'paid' ? 'success' : invoice.status === 'open' ? 'warning' : 'neutral'}
      >
        <span className="capitalize">{invoice.status}</span>
      </Badge>
    ),
  },
  {
    id: 'download',
    header: <span className="sr-only">Download</span>,
    align: 'right',
    cell: (invoice) => {
      const name = invoice.number ?? formatDate(invoice.createdAt);
      if (invoice.pdfUrl) {
        return (
          <a
            href={invoice.pdfUrl}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 font-medium text-accent hover:underline"
            aria-label={`Download invoice ${name} (PDF)`}
          >
            <FileText aria-hidden="true" className="size-4" />
            PDF
          </a>
        );
      }
      if (invoice.hostedUrl) {
        return (
          <a
            href={invoice.hostedUrl}
            target="_blank"
            rel="noreferrer"
            className="font-medium text-accent hover:underline"
            aria-label={`View invoice ${name} on Stripe`}
          >
            View
          </a>
        );
      }
      return <span className="text-fg-subtle">—</span>;
    },
  },
];

function InvoicesSection({ organizationId }: { organizationId: string | undefined }) {
  const invoices = useBillingInvoices(organizationId);
  const provider = invoices.data?.provider;
  return (
    <section aria-labelledby="invoices-heading" className="flex flex-col gap-3">
      <h2 id="invoices-heading" className="text-lg font-semibold tracking-tight text-fg">
        Invoices
      </h2>
      <DataTable
        caption="Invoices"
        columns={invoiceColumns}
        rows={invoices.data?.invoices}
        rowKey={(invoice) => invoice.id}
        isLoading={invoices.isPending}
        error={invoices.isError ? invoices.error.message : null}
        empty={
          provider === 'local'
            ? 'No invoices: the local provider does not charge.'
            : 'No invoices yet: they appear here after the first payment.'
        }
      />
    </section>
  );
}
