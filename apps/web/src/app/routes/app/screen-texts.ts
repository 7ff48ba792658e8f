import { paths } from '@/config/paths';

/**
 * What each placeholder screen (`screens.ts`) says: its title, one sentence
 * on what it is for, what will appear in the empty state's place, and the
 * capability it arrives with. Keyed by the route's path; a test keeps both
 * lists equal.
 */
export type Capability = 'billing';

export const capabilityNames: Record<Capability, string> = {
  billing: 'billing and subscriptions',
};

export type ScreenText = {
  title: string;
  /** One sentence under the title: what this screen is for. */
  description: string;
  /** What will appear in the empty state's place. */
  emptyText: string;
  capability: Capability;
};

const p = paths;

export const screenTexts: Record<string, ScreenText> = Object.fromEntries<ScreenText>([
  [
    p.subscribe.path,
    {
      title: 'Choose a plan',
      description: 'Upgrade your organization and pay by card.',
      emptyText: 'The plans with their limits and a secure checkout.',
      capability: 'billing',
    },
  ],
  [
    p.billing.path,
    {
      title: 'Billing',
      description: 'Your plan, usage against its limits and invoices.',
      emptyText: 'The current plan, learners, courses and agents used, and past invoices.',
      capability: 'billing',
    },
  ],
]);
