import { plans } from '@courselens/contracts';
import { Link } from 'react-router';

import { PlanCard } from '@/components/plan-card';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';

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
              <PlanCard
                plan={plan}
                footer={
                  <Link
                    to={paths.auth.signup.href()}
                    className={buttonClassName({
                      variant: plan.isRecommended ? 'primary' : 'outline',
                      className: 'w-full',
                    })}
                  >
                    {plan.monthlyPriceUsd === 0 ? 'Start free' : `Start with ${plan.name}`}
                  </Link>
                }
              />
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
