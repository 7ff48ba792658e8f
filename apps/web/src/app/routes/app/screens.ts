import { paths, reportViews } from '@/config/paths';

/**
 * The screens whose feature belongs to a later capability. Each is a real
 * route with the real layout; until its capability ships it shows its title
 * and an empty state that says what will appear there (never a fake result).
 */
export type Capability =
  | 'courses'
  | 'learners'
  | 'variables'
  | 'questions'
  | 'reports'
  | 'analytics'
  | 'pipelines'
  | 'agents'
  | 'billing'
  | 'identity'
  | 'activity';

export const capabilityNames: Record<Capability, string> = {
  courses: 'course ingestion (courses, runs and broadcasts)',
  learners: 'course ingestion (learners and their answers)',
  variables: 'variable reports (report, chart, leaders and AI summary)',
  questions: 'question reports',
  reports: 'custom reports (builder, AI generator and public links)',
  analytics: 'analytics (funnels, heatmaps, learning paths and insights)',
  pipelines: 'pipelines and actions',
  agents: 'custom AI agents',
  billing: 'billing and subscriptions',
  identity: 'accounts, organizations and team',
  activity: 'the activity feed',
};

export type ScreenDefinition = {
  path: string;
  title: string;
  /** One sentence under the title: what this screen is for. */
  description: string;
  /** What will appear in the empty state's place. */
  emptyText: string;
  capability: Capability;
  access: 'auth' | 'public';
  /** Flagged shared: no navbar, no sidebar (spec section 2). */
  shared?: boolean;
};

type ViewText = { title: string; emptyText: string };
const viewTexts: Record<(typeof reportViews)[number], ViewText> = {
  report: {
    title: 'report',
    emptyText: 'Every learner value with its course run, date and completion, sortable and exportable.',
  },
  chart: { title: 'chart', emptyText: 'The distribution of values and how it moves over time.' },
  leaders: { title: 'leaders', emptyText: 'The learners with the highest and lowest values.' },
};

const questionViewTexts: Record<(typeof reportViews)[number], ViewText> = {
  report: {
    title: 'report',
    emptyText: 'Every answer with its learner, course run and date, and how often it is answered correctly.',
  },
  chart: { title: 'chart', emptyText: 'How the answers spread across the choices, first try and retries.' },
  leaders: { title: 'leaders', emptyText: 'The learners who answer it right most often and fastest.' },
};

function reportScreens(
  pathTemplate: string,
  base: Omit<ScreenDefinition, 'path' | 'title' | 'emptyText'> & { subject: string },
): ScreenDefinition[] {
  const { subject, ...rest } = base;
  const texts = subject === 'Question' ? questionViewTexts : viewTexts;
  return reportViews.map((view) => ({
    ...rest,
    path: pathTemplate.replace(':view', view),
    title: `${subject} ${texts[view].title}`,
    emptyText: texts[view].emptyText,
  }));
}

const p = paths;

export const screens: ScreenDefinition[] = [
  {
    path: p.subscribe.path,
    title: 'Choose a plan',
    description: 'Upgrade your organization and pay by card.',
    emptyText: 'The plans with their limits and a secure checkout.',
    capability: 'billing',
    access: 'auth',
  },
  {
    path: p.pipelines.list.path,
    title: 'Pipelines',
    description: 'Route course data between variables and trigger actions.',
    emptyText: 'Your pipelines, their triggers and when each last ran.',
    capability: 'pipelines',
    access: 'auth',
  },
  {
    path: p.pipelines.aiGenerator.path,
    title: 'Pipeline AI generator',
    description: 'Describe a pipeline in words and get a draft to edit.',
    emptyText: 'A prompt box and the drafted pipeline, ready to open in the editor.',
    capability: 'pipelines',
    access: 'auth',
  },
  {
    path: p.pipelines.editor.path,
    title: 'Pipeline editor',
    description: 'Connect sources, transforms and actions on a canvas.',
    emptyText: 'The pipeline canvas with its nodes and connections.',
    capability: 'pipelines',
    access: 'auth',
  },
  {
    path: p.actions.list.path,
    title: 'Actions',
    description: 'What a pipeline can do: send a webhook, set a variable, notify someone.',
    emptyText: 'Your actions and the pipelines that use them.',
    capability: 'pipelines',
    access: 'auth',
  },
  {
    path: p.actions.create.path,
    title: 'Create action',
    description: 'Define a new action for your pipelines.',
    emptyText: 'The action form: name, type and settings.',
    capability: 'pipelines',
    access: 'auth',
  },
  {
    path: p.actions.edit.path,
    title: 'Edit action',
    description: 'Change an action used by your pipelines.',
    emptyText: 'The action form, filled with its current settings.',
    capability: 'pipelines',
    access: 'auth',
  },
  {
    path: p.variables.list.path,
    title: 'Variables',
    description: 'Every variable your courses and agents send, with its latest values.',
    emptyText: 'Your variables, their type, the courses that send them and whether they are active.',
    capability: 'variables',
    access: 'auth',
  },
  ...reportScreens(p.variables.chatbotReport.path, {
    subject: 'Agent variable',
    description: 'A variable collected by a custom AI agent.',
    capability: 'variables',
    access: 'auth',
  }),
  {
    path: p.variables.chatbotAiSummary.path,
    title: 'AI summary',
    description: 'A plain-language reading of an agent variable, built from its statistics.',
    emptyText: 'The summary: count, mean, median, spread, trend, top and bottom learners.',
    capability: 'variables',
    access: 'auth',
  },
  {
    path: p.chatbots.list.path,
    title: 'Custom AI Agents',
    description: 'Chat agents grounded in your instructions that collect answers into variables.',
    emptyText: 'Your agents, their variables and their conversations.',
    capability: 'agents',
    access: 'auth',
  },
  {
    path: p.chatbots.create.path,
    title: 'Create agent',
    description: 'Give an agent instructions, knowledge and the variables it collects.',
    emptyText: 'The agent form and a live preview of the chat.',
    capability: 'agents',
    access: 'auth',
  },
  {
    path: p.chatbots.edit.path,
    title: 'Edit agent',
    description: 'Change an agent’s instructions, knowledge and variables.',
    emptyText: 'The agent form, filled with its current settings.',
    capability: 'agents',
    access: 'auth',
  },
  {
    path: p.billing.path,
    title: 'Billing',
    description: 'Your plan, usage against its limits and invoices.',
    emptyText: 'The current plan, learners, courses and agents used, and past invoices.',
    capability: 'billing',
    access: 'auth',
  },
  {
    path: p.questions.list.path,
    title: 'Questions',
    description: 'Every quiz question your courses send, with its success rate.',
    emptyText: 'Your questions, their courses and how often learners answer them correctly.',
    capability: 'questions',
    access: 'auth',
  },
  {
    path: p.learners.list.path,
    title: 'Learners',
    description: 'Everyone who took one of your courses.',
    emptyText: 'Your learners, their courses, progress and last activity.',
    capability: 'learners',
    access: 'auth',
  },
  {
    path: p.learners.courses.path,
    title: 'Learner courses',
    description: 'The courses one learner took.',
    emptyText: 'Each course run of this learner with its progress and score.',
    capability: 'learners',
    access: 'auth',
  },
  {
    path: p.learners.variables.path,
    title: 'Learner variables',
    description: 'The values one learner sent.',
    emptyText: 'Every variable value of this learner, by course.',
    capability: 'learners',
    access: 'auth',
  },
  {
    path: p.learners.responses.path,
    title: 'Learner responses',
    description: 'The quiz answers of one learner.',
    emptyText: 'Every answer of this learner, correct or incorrect.',
    capability: 'learners',
    access: 'auth',
  },
  {
    path: p.learners.courseVariables.path,
    title: 'Learner course variables',
    description: 'The values one learner sent in one course.',
    emptyText: 'The variable values of this learner in this course.',
    capability: 'learners',
    access: 'auth',
  },
  {
    path: p.courses.list.path,
    title: 'Courses',
    description: 'Every course connected to your organization.',
    emptyText: 'Your courses with their runs, learners and completion.',
    capability: 'courses',
    access: 'auth',
  },
  {
    path: p.courses.learners.path,
    title: 'Course learners',
    description: 'Everyone who took this course.',
    emptyText: 'The learners of this course with their progress.',
    capability: 'courses',
    access: 'auth',
  },
  {
    path: p.courses.variables.path,
    title: 'Course variables',
    description: 'The variables this course sends.',
    emptyText: 'The variables of this course and their latest values.',
    capability: 'courses',
    access: 'auth',
  },
  {
    path: p.courses.questions.path,
    title: 'Course questions',
    description: 'The quiz questions of this course.',
    emptyText: 'The questions of this course and their success rates.',
    capability: 'courses',
    access: 'auth',
  },
  {
    path: p.courses.broadcasts.path,
    title: 'Broadcasts',
    description: 'Messages sent to the learners of a course.',
    emptyText: 'The broadcasts of this course and who received them.',
    capability: 'courses',
    access: 'auth',
  },
  {
    path: p.analytics.overview.path,
    title: 'Analytics',
    description: 'How learners move through your courses.',
    emptyText: 'Completion, drop-off and engagement across every course run.',
    capability: 'analytics',
    access: 'auth',
  },
  {
    path: p.analytics.funnels.path,
    title: 'Funnels',
    description: 'Where learners drop off between steps.',
    emptyText: 'Step-by-step funnels for each course.',
    capability: 'analytics',
    access: 'auth',
  },
  {
    path: p.analytics.heatmaps.path,
    title: 'Heatmaps',
    description: 'Which questions and slides get the most attention.',
    emptyText: 'Heatmaps of answers and time spent.',
    capability: 'analytics',
    access: 'auth',
  },
  {
    path: p.analytics.questions.path,
    title: 'Question analytics',
    description: 'Difficulty and discrimination of every question.',
    emptyText: 'The hardest and easiest questions and how answers spread.',
    capability: 'analytics',
    access: 'auth',
  },
  {
    path: p.analytics.learningPaths.path,
    title: 'Learning paths',
    description: 'The routes learners take through your courses.',
    emptyText: 'The most common paths and where they end.',
    capability: 'analytics',
    access: 'auth',
  },
  {
    path: p.analytics.insights.path,
    title: 'Insights',
    description: 'What changed and what deserves a look.',
    emptyText: 'Notable changes and outliers, explained.',
    capability: 'analytics',
    access: 'auth',
  },
  {
    path: p.analytics.settings.path,
    title: 'Analytics settings',
    description: 'What analytics count and how.',
    emptyText: 'Completion rules, time windows and exclusions.',
    capability: 'analytics',
    access: 'auth',
  },
  {
    path: p.activity.path,
    title: 'Activity',
    description: 'What happened in your organization, as it happens.',
    emptyText: 'A live feed of course events, new learners and changes by your team.',
    capability: 'activity',
    access: 'auth',
  },
  ...reportScreens(p.shared.chatbotVariable.path, {
    subject: 'Agent variable',
    description: 'An agent variable report shared with you.',
    capability: 'variables',
    access: 'public',
    shared: true,
  }),
];
