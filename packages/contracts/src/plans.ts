/**
 * The plan definitions: the pricing page shows them and billing (server and
 * web) reads the same caps, so what visitors are promised is what is enforced.
 */
export const PLAN_IDS = ['free', 'team', 'business'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type Plan = {
  id: PlanId;
  name: string;
  /** Monthly price in US dollars; null: talk to us. */
  monthlyPriceUsd: number | null;
  tagline: string;
  /** Organization caps (spec section 3: max_learners, max_courses, max_chatbots). */
  limits: { maxLearners: number; maxCourses: number; maxChatbots: number };
  features: string[];
  isRecommended?: boolean;
};

export const plans: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    monthlyPriceUsd: 0,
    tagline: 'For a first course and a pilot group.',
    limits: { maxLearners: 100, maxCourses: 3, maxChatbots: 1 },
    features: [
      'Variable and question reports',
      'AI summaries (built-in engine)',
      'Public report links',
      'Community support',
    ],
  },
  {
    id: 'team',
    name: 'Team',
    monthlyPriceUsd: 49,
    tagline: 'For a learning team running several programmes.',
    limits: { maxLearners: 2_500, maxCourses: 25, maxChatbots: 5 },
    features: [
      'Everything in Free',
      'Custom reports and AI report generator',
      'Pipelines and actions',
      'Funnels, heatmaps and learning paths',
      'Email support',
    ],
    isRecommended: true,
  },
  {
    id: 'business',
    name: 'Business',
    monthlyPriceUsd: 199,
    tagline: 'For organizations with many programmes and teams.',
    limits: { maxLearners: 25_000, maxCourses: 250, maxChatbots: 25 },
    features: [
      'Everything in Team',
      'Your own LLM endpoint for AI features',
      'Several organizations, one login',
      'Priority support',
    ],
  },
];

/** The plan of an id (Free for an id no plan has, e.g. one a newer version retired). */
export function planById(id: string): Plan {
  return plans.find((plan) => plan.id === id) ?? (plans[0] as Plan);
}
