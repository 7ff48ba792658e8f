import type { BillingMeter, BillingOverview } from '@courselens/contracts';

/** Test data of the billing screens: a new organization on Free with the local provider. */

export const meAs = (role: 'owner' | 'team_member') => ({
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role, isPrimary: true }],
});

export const meterOf = (overrides: Partial<BillingMeter> & Pick<BillingMeter, 'metric'>): BillingMeter => ({
  used: 0,
  cap: 0,
  planCap: overrides.cap ?? 0,
  percent: 0,
  forecast: { addedLast30Days: 0, perDay: 0, reachesCapOn: null },
  ...overrides,
});

export const freeOverview = (overrides: Partial<BillingOverview> = {}): BillingOverview => ({
  plan: { id: 'free', name: 'Free' },
  provider: 'local',
  interval: null,
  status: 'active',
  renewsAt: null,
  cancelAtPeriodEnd: false,
  paymentGraceEndsAt: null,
  learnerGrace: null,
  meters: [
    meterOf({
      metric: 'learners',
      used: 12,
      cap: 100,
      percent: 12,
      forecast: { addedLast30Days: 12, perDay: 0.4, reachesCapOn: null },
    }),
    meterOf({ metric: 'courses', used: 3, cap: 3, percent: 100 }),
    meterOf({ metric: 'chatbots', used: 0, cap: 1 }),
  ],
  notices: [],
  paymentMethod: null,
  features: ['Variable and question reports', 'Community support'],
  ...overrides,
});

export const teamOverview = (overrides: Partial<BillingOverview> = {}): BillingOverview =>
  freeOverview({
    plan: { id: 'team', name: 'Team' },
    interval: 'month',
    meters: [
      meterOf({ metric: 'learners', used: 12, cap: 2500, percent: 0.5 }),
      meterOf({ metric: 'courses', used: 3, cap: 25, percent: 12 }),
      meterOf({ metric: 'chatbots', used: 0, cap: 5 }),
    ],
    features: ['Everything in Free', 'Email support'],
    ...overrides,
  });
