import { paths } from '@/config/paths';

/**
 * What each placeholder screen (`screens.ts`) says: its title, one sentence
 * on what it is for, what will appear in the empty state's place, and the
 * capability it arrives with. Keyed by the route's path; a test keeps both
 * lists equal.
 */
export type Capability = 'analytics' | 'billing';

export const capabilityNames: Record<Capability, string> = {
  analytics: 'analytics (funnels, heatmaps, learning paths and insights)',
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
  [
    p.analytics.overview.path,
    {
      title: 'Analytics',
      description: 'How learners move through your courses.',
      emptyText: 'Completion, drop-off and engagement across every course run.',
      capability: 'analytics',
    },
  ],
  [
    p.analytics.funnels.path,
    {
      title: 'Funnels',
      description: 'Where learners drop off between steps.',
      emptyText: 'Step-by-step funnels for each course.',
      capability: 'analytics',
    },
  ],
  [
    p.analytics.heatmaps.path,
    {
      title: 'Heatmaps',
      description: 'Which questions and slides get the most attention.',
      emptyText: 'Heatmaps of answers and time spent.',
      capability: 'analytics',
    },
  ],
  [
    p.analytics.questions.path,
    {
      title: 'Question analytics',
      description: 'Difficulty and discrimination of every question.',
      emptyText: 'The hardest and easiest questions and how answers spread.',
      capability: 'analytics',
    },
  ],
  [
    p.analytics.learningPaths.path,
    {
      title: 'Learning paths',
      description: 'The routes learners take through your courses.',
      emptyText: 'The most common paths and where they end.',
      capability: 'analytics',
    },
  ],
  [
    p.analytics.insights.path,
    {
      title: 'Insights',
      description: 'What changed and what deserves a look.',
      emptyText: 'Notable changes and outliers, explained.',
      capability: 'analytics',
    },
  ],
  [
    p.analytics.settings.path,
    {
      title: 'Analytics settings',
      description: 'What analytics count and how.',
      emptyText: 'Completion rules, time windows and exclusions.',
      capability: 'analytics',
    },
  ],
]);
