import { Check } from 'lucide-react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { plans } from '@courselens/contracts';

import { formatNumber } from '@/lib/format';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

import { MarketingHero } from './marketing';

export function PricingRoute() {
  return (
    <>
      <title>Pricing · CourseLens</title>
      <MarketingHero eyebrow="Pricing" title="Simple plans that grow with your programmes">
        <p>
          Start free. Upgrade when your learners do. Every plan includes reports, AI summaries and public
          links.
        </p>
      </MarketingHero>
      <section aria-labelledby="plans-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <h2 id="plans-title" className="sr-only">
          Plans
        </h2>
        <ul className="grid gap-6 lg:grid-cols-3">
          {plans.map((plan) => (
            <li key={plan.id} data-testid={`plan-${plan.id}`}>
              <article
                aria-labelledby={`plan-${plan.id}-name`}
                className={cn(
                  'flex h-full flex-col rounded-2xl border bg-surface p-7 shadow-sm',
                  plan.isRecommended
                    ? 'border-brand-500 ring-1 ring-brand-500 dark:border-brand-400 dark:ring-brand-400'
                    : 'border-line',
                )}
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 id={`plan-${plan.id}-name`} className="text-lg font-semibold text-fg">
                    {plan.name}
                  </h3>
                  {plan.isRecommended ? <Badge variant="brand">Most popular</Badge> : null}
                </div>
                <p className="mt-2 text-sm text-fg-muted">{plan.tagline}</p>
                <p className="mt-6 flex items-baseline gap-1">
                  <span className="text-4xl font-bold tracking-tight text-fg">
                    {plan.monthlyPriceUsd === null ? 'Custom' : `$${plan.monthlyPriceUsd}`}
                  </span>
                  {plan.monthlyPriceUsd === null ? null : (
                    <span className="text-sm text-fg-muted">/ month</span>
                  )}
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
                <Link
                  to={paths.auth.signup.href()}
                  className={buttonClassName({
                    variant: plan.isRecommended ? 'primary' : 'outline',
                    className: 'mt-8 w-full',
                  })}
                >
                  {plan.monthlyPriceUsd === 0 ? 'Start free' : `Start with ${plan.name}`}
                </Link>
              </article>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center text-sm text-fg-muted">
          Prices in US dollars, billed monthly. Limits count distinct learners and active courses per
          organization.
        </p>
      </section>
    </>
  );
}
