import type { ActionType, ConditionOperator, CourseTriggerEvent, DelayUnit } from '@courselens/contracts';
import { COURSES } from '../../db/seed/catalog';

// The pipeline generator's test set: what a training manager types into
// "Describe your pipeline", with the pipeline a person would build by hand
// from it. Written from the demo organization's catalog (the seed) and a few
// actions such an organization has, before the parser, and never tuned to
// it: a case that fails is a parser that does not understand, unless the
// expectation was wrong about the product.

// ---- the catalog ---------------------------------------------------------------------

export const COURSE_TITLES = {
  safety: 'Workplace Safety Essentials',
  onboarding: 'New Hire Onboarding',
  gdpr: 'Data Privacy & GDPR Fundamentals',
  leadership: 'Leadership Foundations for New Managers',
  service: 'Customer Service Excellence',
  fire: 'Fire Safety Refresher',
} as const;
export type CourseKey = keyof typeof COURSE_TITLES;
export const DEMO_COURSES: readonly CourseKey[] = ['safety', 'onboarding', 'gdpr', 'leadership', 'service'];

/** The actions the organization has made (the generator reuses them when a request names one). */
export const CATALOG_ACTIONS = [
  {
    name: 'Notify LMS',
    type: 'webhook',
    config: { type: 'webhook', url: 'https://lms.example.com/hooks/courselens', method: 'POST' },
  },
  {
    name: 'Slack #training',
    type: 'webhook',
    config: { type: 'webhook', url: 'https://hooks.slack.example.com/services/T0/B0/x', method: 'POST' },
  },
  {
    name: 'Welcome e-mail',
    type: 'email',
    config: { type: 'email', to: { kind: 'learner' }, subject: 'Welcome, {{learner.name}}' },
  },
  {
    name: 'Alert training team',
    type: 'notify_team',
    config: { type: 'notify_team', message: '{{learner.email}}: {{event.type}} in {{course.title}}' },
  },
] as const satisfies readonly { name: string; type: ActionType; config: Record<string, unknown> }[];
export type ActionName = (typeof CATALOG_ACTIONS)[number]['name'];

/**
 * Which catalog a case reads: the demo organization's, or the demo with a
 * second safety course ("Fire Safety Refresher"), so "the safety course"
 * matches two courses and the generator must ask back.
 */
export type CatalogVariant = 'demo' | 'extended';

export type CasesCatalog = {
  timeZone: string;
  courses: { id: string; title: string }[];
  variables: {
    id: string;
    courseId: string;
    courseTitle: string;
    name: string;
    title: string;
    dataType: string;
  }[];
  actions: { id: string; name: string; type: ActionType; config: Record<string, unknown> }[];
  chatbots: { id: string; name: string }[];
  courseId: (key: CourseKey) => string;
  actionId: (name: ActionName) => string;
};

/** Stable fake ids (valid UUIDs): the same catalog on every run, no database needed. */
function fakeId(kind: number, group: number, index: number): string {
  const tail = `${kind}${String(group).padStart(3, '0')}${String(index).padStart(8, '0')}`;
  return `00000000-0000-4000-8000-${tail}`;
}

export function buildCasesCatalog(variant: CatalogVariant): CasesCatalog {
  const keys: CourseKey[] = [...DEMO_COURSES, ...(variant === 'extended' ? (['fire'] as const) : [])];
  const courses = keys.map((key, i) => ({ id: fakeId(1, i, 0), title: COURSE_TITLES[key] }));
  const variables = keys.flatMap((key, i) => {
    const spec = COURSES.find((course) => course.title === COURSE_TITLES[key]);
    const own = spec
      ? spec.variables.map(({ name, title, dataType }) => ({ name, title, dataType: String(dataType) }))
      : [
          { name: 'final_score', title: 'Final score', dataType: 'number' },
          { name: 'department', title: 'Department', dataType: 'text' },
        ];
    return own.map((variable, index) => ({
      id: fakeId(2, i, index),
      courseId: fakeId(1, i, 0),
      courseTitle: COURSE_TITLES[key],
      ...variable,
    }));
  });
  const actions = CATALOG_ACTIONS.map((action, i) => ({
    id: fakeId(4, 0, i),
    name: action.name,
    type: action.type,
    config: { ...action.config },
  }));
  return {
    timeZone: 'Europe/London',
    courses,
    variables,
    actions,
    chatbots: [],
    courseId: (key) => {
      const course = courses.find((c) => c.title === COURSE_TITLES[key]);
      if (!course) throw new Error(`The ${variant} catalog has no course ${key}`);
      return course.id;
    },
    actionId: (name) => {
      const action = actions.find((a) => a.name === name);
      if (!action) throw new Error(`No action ${name}`);
      return action.id;
    },
  };
}

// ---- what a case expects -----------------------------------------------------------------

export type ExpectedSource =
  | { type: 'course'; courses: readonly CourseKey[]; events: readonly CourseTriggerEvent[] }
  | { type: 'schedule'; cron: string }
  | { type: 'manual' };

export type ExpectedCondition = {
  field: string;
  op: ConditionOperator;
  value?: string | number | boolean;
  variableName?: string;
  eventType?: CourseTriggerEvent;
};

/**
 * An action the pipeline runs: one the organization has (by name, when the
 * request names it), or one of a type with the settings that matter (an
 * existing action of that type with those settings also satisfies it).
 */
export type ExpectedAction =
  | { existing: ActionName }
  | { type: 'email'; to?: 'learner' | 'team' | 'addresses' }
  | { type: 'set_variable'; variableName: string; value: string | number | boolean }
  | { type: 'broadcast'; mode: 'set' | 'clear'; course?: CourseKey }
  | { type: 'notify_team' }
  | { type: 'webhook' };

export type ExpectedPlan =
  | {
      source: ExpectedSource;
      /** Conditions of the filters on the way (in any order). */
      conditions?: readonly ExpectedCondition[];
      delay?: { amount: number; unit: DelayUnit };
      /** Actions every run that passes the filters reaches (in any order). */
      actions?: readonly ExpectedAction[];
      /** A branch after the filters: its conditions and the actions on each side. */
      branch?: {
        conditions: readonly ExpectedCondition[];
        yes: readonly ExpectedAction[];
        no: readonly ExpectedAction[];
      };
      /** Words the generator must report as not understood (each a substring of one `unmapped` entry). */
      unmapped?: readonly string[];
    }
  | {
      /** One variable of several courses reported as one: the variable's name and the courses it comes from. */
      mapping: { variableName: string; courses: readonly CourseKey[] };
    }
  | {
      /** The request names something that matches several things: the generator asks back. */
      ambiguous: 'course' | 'action' | 'variable';
    };

export type GeneratorCase = { prompt: string; catalog?: CatalogVariant; expected: ExpectedPlan };

const completed = ['course.completed'] as const;

export const GENERATOR_CASES: readonly GeneratorCase[] = [
  {
    prompt: 'When a learner completes Workplace Safety Essentials, send it to the LMS webhook',
    expected: {
      source: { type: 'course', courses: ['safety'], events: completed },
      actions: [{ existing: 'Notify LMS' }],
    },
  },
  {
    prompt: 'when a learner fails the safety quiz twice, e-mail their manager and set at_risk to true',
    expected: {
      source: { type: 'course', courses: ['safety'], events: ['course.failed'] },
      conditions: [{ field: 'learner.count', eventType: 'course.failed', op: 'gte', value: 2 }],
      actions: [{ type: 'email' }, { type: 'set_variable', variableName: 'at_risk', value: true }],
      unmapped: ['manager'],
    },
  },
  {
    prompt: 'Post to Slack #training whenever someone passes the GDPR course',
    expected: {
      source: { type: 'course', courses: ['gdpr'], events: ['course.passed'] },
      actions: [{ existing: 'Slack #training' }],
    },
  },
  {
    prompt: 'If a learner scores below 50 in Customer Service Excellence, notify the team',
    expected: {
      source: { type: 'course', courses: ['service'], events: ['variable.set'] },
      conditions: [
        { field: 'event.variable', op: 'eq', value: 'final_score' },
        { field: 'event.value', op: 'lt', value: 50 },
      ],
      actions: [{ type: 'notify_team' }],
    },
  },
  {
    prompt: 'Every Monday at 8am e-mail the team',
    expected: { source: { type: 'schedule', cron: '0 8 * * 1' }, actions: [{ type: 'email', to: 'team' }] },
  },
  {
    prompt: 'every day at 6pm notify the training team',
    expected: { source: { type: 'schedule', cron: '0 18 * * *' }, actions: [{ type: 'notify_team' }] },
  },
  {
    prompt: 'When someone starts New Hire Onboarding, send them the welcome email',
    expected: {
      source: { type: 'course', courses: ['onboarding'], events: ['course.started'] },
      actions: [{ existing: 'Welcome e-mail' }],
    },
  },
  {
    prompt: 'Wait 3 days after a learner completes onboarding, then email them',
    expected: {
      source: { type: 'course', courses: ['onboarding'], events: completed },
      delay: { amount: 3, unit: 'days' },
      actions: [{ type: 'email', to: 'learner' }],
    },
  },
  {
    prompt: 'When a learner answers a question wrong in the GDPR course, set needs_review to yes',
    expected: {
      source: { type: 'course', courses: ['gdpr'], events: ['question.answered'] },
      conditions: [{ field: 'event.correct', op: 'eq', value: false }],
      actions: [{ type: 'set_variable', variableName: 'needs_review', value: 'yes' }],
    },
  },
  {
    prompt: 'Clear the broadcast of Customer Service Excellence every Friday at 5pm',
    expected: {
      source: { type: 'schedule', cron: '0 17 * * 5' },
      actions: [{ type: 'broadcast', mode: 'clear', course: 'service' }],
    },
  },
  {
    prompt:
      'When someone completes Leadership Foundations for New Managers and their department is Sales, notify the team',
    expected: {
      source: { type: 'course', courses: ['leadership'], events: completed },
      conditions: [{ field: 'learner.variable', variableName: 'department', op: 'eq', value: 'Sales' }],
      actions: [{ type: 'notify_team' }],
    },
  },
  {
    prompt: 'when a learner passes any course, send a webhook to the LMS',
    expected: {
      source: { type: 'course', courses: DEMO_COURSES, events: ['course.passed'] },
      actions: [{ existing: 'Notify LMS' }],
    },
  },
  {
    prompt: 'Send the welcome email when a learner starts any course',
    expected: {
      source: { type: 'course', courses: DEMO_COURSES, events: ['course.started'] },
      actions: [{ existing: 'Welcome e-mail' }],
    },
  },
  {
    prompt: 'If a learner leaves the safety course without finishing, email them a reminder the next day',
    expected: {
      source: { type: 'course', courses: ['safety'], events: ['course.exited'] },
      delay: { amount: 1, unit: 'days' },
      actions: [{ type: 'email', to: 'learner' }],
    },
  },
  {
    prompt: 'After someone fails the GDPR assessment, wait 2 hours and notify the training team',
    expected: {
      source: { type: 'course', courses: ['gdpr'], events: ['course.failed'] },
      delay: { amount: 2, unit: 'hours' },
      actions: [{ type: 'notify_team' }],
    },
  },
  {
    prompt: 'A button I can press to send the LMS webhook',
    expected: { source: { type: 'manual' }, actions: [{ existing: 'Notify LMS' }] },
  },
  {
    prompt:
      "When a learner's final score in Workplace Safety Essentials is at least 80, set certified to true",
    expected: {
      source: { type: 'course', courses: ['safety'], events: ['variable.set'] },
      conditions: [
        { field: 'event.variable', op: 'eq', value: 'final_score' },
        { field: 'event.value', op: 'gte', value: 80 },
      ],
      actions: [{ type: 'set_variable', variableName: 'certified', value: true }],
    },
  },
  {
    prompt:
      'If someone fails Customer Service Excellence three times, set at_risk to true and alert the training team',
    expected: {
      source: { type: 'course', courses: ['service'], events: ['course.failed'] },
      conditions: [{ field: 'learner.count', eventType: 'course.failed', op: 'gte', value: 3 }],
      actions: [{ type: 'set_variable', variableName: 'at_risk', value: true }, { type: 'notify_team' }],
    },
  },
  {
    prompt:
      'When a learner finishes the safety course, email them a certificate if they passed, otherwise tell the team',
    expected: {
      source: { type: 'course', courses: ['safety'], events: ['course.passed', 'course.failed'] },
      branch: {
        conditions: [{ field: 'event.type', op: 'eq', value: 'course.passed' }],
        yes: [{ type: 'email', to: 'learner' }],
        no: [{ type: 'notify_team' }],
      },
    },
  },
  {
    prompt: 'Every weekday at 9:00 post to Slack #training',
    expected: {
      source: { type: 'schedule', cron: '0 9 * * 1-5' },
      actions: [{ existing: 'Slack #training' }],
    },
  },
  {
    prompt: 'On the first of every month at 7am notify the team',
    expected: { source: { type: 'schedule', cron: '0 7 1 * *' }, actions: [{ type: 'notify_team' }] },
  },
  {
    prompt: 'When someone views slide 5 of the safety course, notify the team',
    expected: {
      source: { type: 'course', courses: ['safety'], events: ['slide.viewed'] },
      conditions: [{ field: 'event.slide', op: 'eq', value: 5 }],
      actions: [{ type: 'notify_team' }],
    },
  },
  {
    prompt: 'When a learner reaches 50% progress in the leadership course, email them some encouragement',
    expected: {
      source: { type: 'course', courses: ['leadership'], events: ['course.progressed'] },
      conditions: [{ field: 'event.percent', op: 'gte', value: 50 }],
      actions: [{ type: 'email', to: 'learner' }],
    },
  },
  {
    prompt: 'When learners from acme.com complete any course, call the LMS webhook',
    expected: {
      source: { type: 'course', courses: DEMO_COURSES, events: completed },
      conditions: [{ field: 'learner.email', op: 'ends_with', value: '@acme.com' }],
      actions: [{ existing: 'Notify LMS' }],
    },
  },
  {
    prompt: 'When a learner completes onboarding, set onboarding_done to true',
    expected: {
      source: { type: 'course', courses: ['onboarding'], events: completed },
      actions: [{ type: 'set_variable', variableName: 'onboarding_done', value: true }],
    },
  },
  {
    prompt: 'Combine the final score of all courses into one variable',
    expected: { mapping: { variableName: 'final_score', courses: DEMO_COURSES } },
  },
  {
    prompt: "Set the broadcast of New Hire Onboarding to 'Welcome aboard!' every Monday at 8",
    expected: {
      source: { type: 'schedule', cron: '0 8 * * 1' },
      actions: [{ type: 'broadcast', mode: 'set', course: 'onboarding' }],
    },
  },
  {
    prompt: 'Whenever feedback is recorded in Customer Service Excellence, forward it to Slack #training',
    expected: {
      source: { type: 'course', courses: ['service'], events: ['variable.set'] },
      conditions: [{ field: 'event.variable', op: 'eq', value: 'feedback' }],
      actions: [{ existing: 'Slack #training' }],
    },
  },
  {
    prompt: 'When a learner fails any course, set at_risk to true',
    expected: {
      source: { type: 'course', courses: DEMO_COURSES, events: ['course.failed'] },
      actions: [{ type: 'set_variable', variableName: 'at_risk', value: true }],
    },
  },
  {
    prompt: 'If a learner completes the safety course in under 10 minutes, notify the team',
    expected: {
      source: { type: 'course', courses: ['safety'], events: completed },
      conditions: [{ field: 'learner.variable', variableName: 'time_spent_minutes', op: 'lt', value: 10 }],
      actions: [{ type: 'notify_team' }],
    },
  },
  {
    prompt: 'Remind learners by email if they have not finished onboarding a week after starting it',
    expected: {
      source: { type: 'course', courses: ['onboarding'], events: ['course.started'] },
      delay: { amount: 7, unit: 'days' },
      conditions: [{ field: 'learner.count', eventType: 'course.completed', op: 'eq', value: 0 }],
      actions: [{ type: 'email', to: 'learner' }],
    },
  },
  {
    prompt: 'When a learner completes the safety course, notify the LMS',
    catalog: 'extended',
    expected: { ambiguous: 'course' },
  },
  {
    prompt: 'When a learner passes Fire Safety Refresher, send the welcome email and alert the training team',
    catalog: 'extended',
    expected: {
      source: { type: 'course', courses: ['fire'], events: ['course.passed'] },
      actions: [{ existing: 'Welcome e-mail' }, { existing: 'Alert training team' }],
    },
  },
  {
    prompt: 'When someone completes the GDPR course, send a webhook to https://hr.example.com/hooks/training',
    expected: {
      source: { type: 'course', courses: ['gdpr'], events: completed },
      actions: [{ type: 'webhook' }],
    },
  },
  {
    prompt: 'Email jane.doe@example.com when a learner fails Leadership Foundations for New Managers',
    expected: {
      source: { type: 'course', courses: ['leadership'], events: ['course.failed'] },
      actions: [{ type: 'email', to: 'addresses' }],
    },
  },
];
