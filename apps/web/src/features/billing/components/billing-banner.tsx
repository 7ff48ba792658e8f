import type { BillingStatus } from '@courselens/contracts';
import { AlertTriangle, CreditCard } from 'lucide-react';
import { Link, useLocation } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { permissionFor } from '@/lib/roles';

import { useBillingStatus } from '../api/get-billing-status';

type Banner = NonNullable<BillingStatus['banner']>;

const toneClass: Record<Banner['kind'], string> = {
  'learner-grace':
    'border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-400/20 dark:bg-amber-400/10 dark:text-amber-50',
  'learner-blocked':
    'border-rose-200 bg-rose-50 text-rose-950 dark:border-rose-400/20 dark:bg-rose-400/10 dark:text-rose-50',
  'payment-failed':
    'border-rose-200 bg-rose-50 text-rose-950 dark:border-rose-400/20 dark:bg-rose-400/10 dark:text-rose-50',
};

/** An alert interrupts (it needs acting on now); a status waits for a pause. */
export function bannerRole(kind: Banner['kind']): 'alert' | 'status' {
  return kind === 'learner-grace' ? 'status' : 'alert';
}

/**
 * The strip at the top of every signed-in page when billing needs attention
 * (the learner cap's grace period or its end, a failed payment), in the
 * server's words; owners get a link to Billing. It loads beside the page
 * and never holds it: until (or unless) the status arrives, nothing shows.
 */
export function BillingBanner() {
  const organization = useSession().currentOrganization;
  const status = useBillingStatus(organization?.id);
  const { pathname } = useLocation();
  const banner = status.data?.banner;
  if (!banner) return null;
  const isOwner = permissionFor(organization?.role ?? null, 'billing').isAllowed;
  const Icon = banner.kind === 'payment-failed' ? CreditCard : AlertTriangle;
  return (
    <div
      role={bannerRole(banner.kind)}
      data-testid="billing-banner"
      data-kind={banner.kind}
      className={cn('border-b', toneClass[banner.kind])}
    >
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-6 lg:px-8">
        <p className="flex min-w-0 flex-1 gap-2.5 text-sm text-pretty">
          <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{banner.message}</span>
        </p>
        {isOwner && pathname !== paths.billing.path ? (
          <Link
            to={paths.billing.href()}
            className={buttonClassName({
              variant: 'outline',
              size: 'sm',
              className: 'self-start sm:self-auto',
            })}
          >
            Go to Billing
          </Link>
        ) : null}
      </div>
    </div>
  );
}
