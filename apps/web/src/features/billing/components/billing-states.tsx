import type { BillingOverview } from '@courselens/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { isApiError } from '@/lib/api-client';

import { OwnerOnlyState } from './owner-only-state';

/** What the screens say plainly when no payment provider is configured. */
export const LOCAL_PROVIDER_SENTENCE =
  'This installation uses the local billing provider: plan changes take effect at once and nothing is charged.';

export type BillingErrorProps = {
  /** What failed, in a sentence ("Billing could not be loaded."). */
  what: string;
  /** The server's message. */
  message: string;
  onRetry: () => void;
};

/** A failed load: what failed, the server's reason, and a way to ask again. */
export function BillingError({ what, message, onRetry }: BillingErrorProps) {
  return (
    <Card className="px-6 py-10 text-center" role="alert">
      <p className="font-medium text-fg">{what}</p>
      <p className="mt-1 text-sm text-fg-muted">{message}</p>
      <Button variant="outline" className="mt-4" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}

const bar = 'rounded bg-surface-muted';

/** While the overview loads: the shape of the cards to come, so the page does not jump. */
export function BillingSkeleton({
  label,
  variant = 'overview',
}: {
  label: string;
  variant?: 'overview' | 'plans';
}) {
  if (variant === 'plans') {
    return (
      <div role="status" aria-label={label} className="grid gap-6 lg:grid-cols-3">
        {[0, 1, 2].map((card) => (
          <Card key={card} className="flex flex-col gap-4 p-7 motion-safe:animate-pulse">
            <span className={`h-5 w-24 ${bar}`} />
            <span className={`h-3.5 w-48 max-w-full ${bar}`} />
            <span className={`h-9 w-28 ${bar}`} />
            <span className="h-16 w-full rounded-xl bg-surface-muted" />
            <span className={`h-3.5 w-40 max-w-full ${bar}`} />
            <span className={`h-3.5 w-44 max-w-full ${bar}`} />
            <span className={`h-3.5 w-36 max-w-full ${bar}`} />
            <span className="mt-4 h-10 w-full rounded-lg bg-surface-muted" />
          </Card>
        ))}
      </div>
    );
  }
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-6">
      <span className="h-12 w-full rounded-xl bg-surface-muted motion-safe:animate-pulse" />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="flex flex-col gap-4 p-6 motion-safe:animate-pulse">
          <span className={`h-4 w-28 ${bar}`} />
          <span className={`h-7 w-24 ${bar}`} />
          <span className={`h-3.5 w-40 max-w-full ${bar}`} />
          <span className={`h-3.5 w-36 max-w-full ${bar}`} />
          <span className={`h-3.5 w-44 max-w-full ${bar}`} />
        </Card>
        <Card className="flex flex-col gap-6 p-6 motion-safe:animate-pulse lg:col-span-2">
          <span className={`h-4 w-20 ${bar}`} />
          {[0, 1, 2].map((meter) => (
            <div key={meter} className="flex flex-col gap-2">
              <span className={`h-3.5 w-32 ${bar}`} />
              <span className="h-2.5 w-full rounded-full bg-surface-muted" />
              <span className={`h-3 w-56 max-w-full ${bar}`} />
            </div>
          ))}
        </Card>
      </div>
      <Card className="h-40 motion-safe:animate-pulse" />
    </div>
  );
}

/**
 * What a billing screen shows before its overview: the owner-only state (a
 * member, or the server's 403 for a role changed since the session loaded),
 * the error with a retry, the skeleton, else the screen with the overview.
 */
export function BillingOverviewGate({
  permissionReason,
  overview,
  errorWhat,
  loading,
  children,
}: {
  permissionReason: string | null | undefined;
  overview: UseQueryResult<BillingOverview>;
  errorWhat: string;
  loading: ReactNode;
  children: (overview: BillingOverview) => ReactNode;
}) {
  if (permissionReason) return <OwnerOnlyState reason={permissionReason} />;
  if (isApiError(overview.error) && overview.error.status === 403) {
    return <OwnerOnlyState reason={overview.error.message} />;
  }
  if (overview.isError) {
    return (
      <BillingError
        what={errorWhat}
        message={overview.error.message}
        onRetry={() => void overview.refetch()}
      />
    );
  }
  if (!overview.data) return loading;
  return children(overview.data);
}
