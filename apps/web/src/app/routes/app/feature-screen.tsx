import { CreditCard, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';

import { Logo } from '@/components/logo';
import { PageHeader } from '@/components/page-header';
import { buttonClassName } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';

import { capabilityNames, screenTexts, type Capability } from './screen-texts';
import type { ScreenRoute } from './screens';

const capabilityIcons: Record<Capability, LucideIcon> = {
  billing: CreditCard,
};

export type FeatureScreenProps = { route: ScreenRoute };

/**
 * A screen whose capability is not built yet: the real frame, its title, and
 * an empty state saying what will appear here and with which capability.
 */
export function FeatureScreen({ route }: FeatureScreenProps) {
  const screen = screenTexts[route.path];
  if (!screen) throw new Error(`No text for the placeholder screen ${route.path}`);
  const Icon = capabilityIcons[screen.capability];
  const isStandalone = route.shared === true;
  const body = (
    <>
      <title>{`${screen.title} · CourseLens`}</title>
      <PageHeader title={screen.title} description={screen.description} />
      <Card className="mt-8 flex flex-col items-center px-6 py-14 text-center" data-testid="empty-state">
        <div className="mb-5 flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 ring-1 ring-brand-600/15 dark:bg-brand-400/10 dark:text-brand-300 dark:ring-brand-300/20">
          <Icon aria-hidden="true" className="size-6" />
        </div>
        <h2 className="text-lg font-semibold text-fg">Nothing to show yet</h2>
        <p className="mt-2 max-w-md text-sm text-pretty text-fg-muted">
          <span className="font-medium text-fg">What will appear here:</span> {screen.emptyText}
        </p>
        <p className="mt-3 max-w-md text-sm text-fg-subtle">
          This screen arrives with the {capabilityNames[screen.capability]} capability.
        </p>
      </Card>
    </>
  );
  if (!isStandalone) return <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">{body}</div>;
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col px-4 py-8 sm:px-6">
      <div className="mb-8 flex items-center justify-between gap-4">
        <Link to={paths.home.href()} aria-label="CourseLens home" className="rounded-lg">
          <Logo />
        </Link>
        <Link to={paths.auth.signup.href()} className={buttonClassName({ variant: 'outline', size: 'sm' })}>
          Try CourseLens
        </Link>
      </div>
      {body}
    </div>
  );
}
