import { planPrice, type BillingInterval, type Plan } from '@courselens/contracts';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';

export type PlanCardProps = {
  plan: Plan;
  /** The price shown: per month (the default) or per year (ten months for twelve). */
  interval?: BillingInterval;
  /** Heading level of the plan's name, so the card fits the page's outline. */
  headingLevel?: 'h2' | 'h3';
  /** Shown beside the name; by default "Most popular" on the recommended plan. */
  badge?: ReactNode;
  /** Outlines the card: by default the recommended plan. */
  isHighlighted?: boolean;
  /** The card's action (a link or a button) and anything said under it. */
  footer: ReactNode;
  /** Extra lines between the features and the action (e.g. a warning about usage). */
  children?: ReactNode;
};

/**
 * One plan as the pricing page and the subscribe page show it: name,
 * tagline, price, the caps (learners, courses, AI agents) and the features,
 * read from the same `plans` definitions the server enforces.
 */
export function PlanCard({
  plan,
  interval = 'month',
  headingLevel: Heading = 'h3',
  badge,
  isHighlighted = plan.isRecommended === true,
  footer,
  children,
}: PlanCardProps) {
  const nameId = `plan-${plan.id}-name`;
  const price = planPrice(plan, interval);
  const isPaid = price !== null && price > 0;
  return (
    <article
      aria-labelledby={nameId}
      className={cn(
        'flex h-full flex-col rounded-2xl border bg-surface p-6 shadow-sm sm:p-7',
        isHighlighted
          ? 'border-brand-500 ring-1 ring-brand-500 dark:border-brand-400 dark:ring-brand-400'
          : 'border-line',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={nameId} className="text-lg font-semibold text-fg">
          {plan.name}
        </Heading>
        {badge === undefined ? (
          plan.isRecommended ? (
            <Badge variant="brand">Most popular</Badge>
          ) : null
        ) : (
          badge
        )}
      </div>
      <p className="mt-2 text-sm text-fg-muted">{plan.tagline}</p>
      <p className="mt-6 flex flex-wrap items-baseline gap-x-1 gap-y-2">
        <span className="text-4xl font-bold tracking-tight text-fg">
          {price === null ? 'Custom' : `$${formatNumber(price)}`}
        </span>
        {price === null ? null : <span className="text-sm text-fg-muted">/ {interval}</span>}
        {interval === 'year' && isPaid ? (
          <Badge variant="success" className="ml-2 self-center">
            2 months free
          </Badge>
        ) : null}
      </p>
      <dl className="mt-6 grid grid-cols-3 gap-2 rounded-xl bg-surface-muted p-3 text-center">
        <div>
          <dt className="text-xs text-fg-subtle">Learners</dt>
          <dd className="font-semibold text-fg">{formatNumber(plan.limits.maxLearners)}</dd>
        </div>
        <div>
          <dt className="text-xs text-fg-subtle">Courses</dt>
          <dd className="font-semibold text-fg">{formatNumber(plan.limits.maxCourses)}</dd>
        </div>
        <div>
          <dt className="text-xs text-fg-subtle">AI agents</dt>
          <dd className="font-semibold text-fg">{formatNumber(plan.limits.maxChatbots)}</dd>
        </div>
      </dl>
      <ul className="mt-6 flex flex-1 flex-col gap-2.5 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2 text-fg">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
            {feature}
          </li>
        ))}
      </ul>
      {children}
      <div className="mt-8">{footer}</div>
    </article>
  );
}
