import type {
  ActivityEvent,
  BreakdownKind,
  MeasureFn,
  ReportCatalog,
  ReportChart,
  ReportPeriod,
  ReportSort,
  ValueCondition,
} from '@courselens/contracts';
import { COURSES, DEPARTMENTS, MANAGEMENT_LEVELS, REGIONS } from '../../db/seed/catalog';
import type { GeneratorCatalog } from './report-generator/types';

// The generator's test set: what a training manager types into "Describe the
// report you want", with the report a person would build by hand from it.
// Written from the demo organization's catalog (the seed) before the parser,
// and never tuned to it: a case that fails is a parser that does not
// understand, unless the expectation was wrong about the product.

/** The day the cases are read on (periods such as "since March" or "in Q3" depend on it). */
export const CASES_NOW = new Date('2026-05-14T10:00:00Z');

// ---- the catalog -----------------------------------------------------------------

/** Short names of the demo courses (and of the extra ones some cases add). */
export const COURSE_TITLES = {
  safety: 'Workplace Safety Essentials',
  onboarding: 'New Hire Onboarding',
  gdpr: 'Data Privacy & GDPR Fundamentals',
  leadership: 'Leadership Foundations for New Managers',
  service: 'Customer Service Excellence',
  fire: 'Fire Safety Refresher',
  managerOnboarding: 'Manager Onboarding',
} as const;
export type CourseKey = keyof typeof COURSE_TITLES;

/**
 * Which catalog a case reads: the demo organization's; the demo with two more
 * courses whose names overlap (so a name can match two courses); the demo
 * with the most frequent values of its text variables (when the catalog
 * carries them, "for sales" can become a condition).
 */
export type CatalogVariant = 'demo' | 'extended' | 'withValues';

type CourseDefinition = {
  key: CourseKey;
  variables: readonly { name: string; title: string; dataType: string }[];
  questions: readonly { slide: number; number: number; text: string }[];
};

const EXTRA_COURSES: readonly CourseDefinition[] = [
  {
    key: 'fire',
    variables: [
      { name: 'final_score', title: 'Final score', dataType: 'number' },
      { name: 'department', title: 'Department', dataType: 'text' },
    ],
    questions: [
      { slide: 2, number: 1, text: 'Where is the nearest fire assembly point?' },
      { slide: 4, number: 2, text: 'How do you use a fire blanket?' },
    ],
  },
  {
    key: 'managerOnboarding',
    variables: [
      { name: 'final_score', title: 'Final score', dataType: 'number' },
      { name: 'team_size', title: 'Team size', dataType: 'number' },
    ],
    questions: [{ slide: 3, number: 1, text: 'Who signs off the expenses of your team?' }],
  },
];

/**
 * The organization's custom AI agents and what they capture (a choice reads
 * as text, as the catalog gives it). Every variant has them, so each case
 * about courses also shows that agent names do not disturb its reading.
 * `feedback` is also a course variable's name: a name two kinds of thing
 * share; `favourite_topic` is captured by both agents.
 */
export const AGENT_NAMES = {
  onboardingAssistant: 'Onboarding Assistant',
  careerCoach: 'Career Coach',
} as const;
export type AgentKey = keyof typeof AGENT_NAMES;

const AGENTS: readonly {
  key: AgentKey;
  variables: readonly { name: string; title: string | null; dataType: string }[];
}[] = [
  {
    key: 'onboardingAssistant',
    variables: [
      { name: 'role', title: 'Job role', dataType: 'text' },
      { name: 'favourite_topic', title: 'Favourite topic', dataType: 'text' },
      { name: 'feels_ready', title: 'Feels ready', dataType: 'boolean' },
    ],
  },
  {
    key: 'careerCoach',
    variables: [
      { name: 'favourite_topic', title: 'Favourite topic', dataType: 'text' },
      { name: 'motivation', title: 'Motivation (1-5)', dataType: 'number' },
      { name: 'next_review_date', title: 'Next review', dataType: 'date' },
      { name: 'feedback', title: null, dataType: 'text' },
    ],
  },
];

function courseKey(title: string): CourseKey {
  const entry = Object.entries(COURSE_TITLES).find(([, courseTitle]) => courseTitle === title);
  if (!entry) throw new Error(`No short name for the course ${title}`);
  return entry[0] as CourseKey;
}

/** Stable fake ids (valid UUIDs): the same catalog on every run, no database needed. */
function fakeId(kind: number, course: number, index: number): string {
  const tail = `${kind}${String(course).padStart(3, '0')}${String(index).padStart(8, '0')}`;
  return `00000000-0000-4000-8000-${tail}`;
}

export type CasesCatalog = GeneratorCatalog & {
  courseId: (key: CourseKey) => string;
  variableId: (key: CourseKey, name: string) => string;
  /** The question of a course on a slide (every demo course asks at most one question per slide). */
  questionId: (key: CourseKey, slide: number) => string;
  chatbotVariableId: (key: AgentKey, name: string) => string;
};

export function buildCasesCatalog(variant: CatalogVariant): CasesCatalog {
  const definitions: CourseDefinition[] = COURSES.map((course) => ({
    key: courseKey(course.title),
    variables: course.variables.map(({ name, title, dataType }) => ({ name, title, dataType })),
    questions: course.questions.map(({ slide, number, text }) => ({ slide, number, text })),
  }));
  if (variant === 'extended') definitions.push(...EXTRA_COURSES);

  const catalog: ReportCatalog = {
    courses: [],
    variables: [],
    chatbotVariables: [],
    questions: [],
    values: [],
  };
  definitions.forEach((definition, courseIndex) => {
    const courseId = fakeId(1, courseIndex, 0);
    const courseTitle = COURSE_TITLES[definition.key];
    catalog.courses.push({ id: courseId, courseTitle });
    definition.variables.forEach((variable, index) => {
      catalog.variables.push({ id: fakeId(2, courseIndex, index), courseId, courseTitle, ...variable });
    });
    definition.questions.forEach((question, index) => {
      catalog.questions.push({
        id: fakeId(3, courseIndex, index),
        courseId,
        courseTitle,
        slideNumber: question.slide,
        questionNumber: question.number,
        questionText: question.text,
      });
    });
  });

  AGENTS.forEach((agent, agentIndex) => {
    const chatbotId = fakeId(4, agentIndex, 0);
    agent.variables.forEach((variable, index) => {
      catalog.chatbotVariables.push({
        id: fakeId(5, agentIndex, index),
        chatbotId,
        chatbotName: AGENT_NAMES[agent.key],
        ...variable,
      });
    });
  });

  const find = <T>(items: readonly T[], test: (item: T) => boolean, what: string): T => {
    const item = items.find(test);
    if (!item) throw new Error(`The ${variant} catalog has no ${what}`);
    return item;
  };
  const courseId = (key: CourseKey) =>
    find(catalog.courses, (course) => course.courseTitle === COURSE_TITLES[key], key).id;
  const values =
    variant === 'withValues'
      ? [
          { variableName: 'department', values: DEPARTMENTS.map(([value]) => value) },
          { variableName: 'region', values: REGIONS.map(([value]) => value) },
          { variableName: 'management_level', values: MANAGEMENT_LEVELS.map(([value]) => value) },
        ]
      : undefined;
  return {
    ...catalog,
    ...(values ? { values } : {}),
    courseId,
    variableId: (key, name) =>
      find(
        catalog.variables,
        (variable) => variable.courseId === courseId(key) && variable.name === name,
        `${name} in ${key}`,
      ).id,
    questionId: (key, slide) =>
      find(
        catalog.questions,
        (question) => question.courseId === courseId(key) && question.slideNumber === slide,
        `question on slide ${slide} of ${key}`,
      ).id,
    chatbotVariableId: (key, name) =>
      find(
        catalog.chatbotVariables,
        (variable) => variable.chatbotName === AGENT_NAMES[key] && variable.name === name,
        `${name} of the agent ${key}`,
      ).id,
  };
}

// ---- what a case expects --------------------------------------------------------------

export type VariableRef = { course: CourseKey; name: string };
export type QuestionRef = { course: CourseKey; slide: number };
export type AgentVariableRef = { agent: AgentKey; name: string };
export type EntityRef =
  | { kind: 'course'; course: CourseKey }
  | { kind: 'variable'; course: CourseKey; name: string }
  | { kind: 'agentVariable'; agent: AgentKey; name: string }
  | { kind: 'question'; course: CourseKey; slide: number };

export type ExpectedSubject =
  | { kind: 'variable'; variables: VariableRef[] }
  | { kind: 'chatbot_variable'; variables: AgentVariableRef[] }
  | { kind: 'question'; question: QuestionRef }
  | { kind: 'identifier'; course: CourseKey; slideNumber?: number; questionNumber?: number }
  | { kind: 'questions'; courses: CourseKey[] }
  | { kind: 'courses'; courses: CourseKey[] };

/**
 * The essentials of one item. What a case leaves out is expected at its
 * default: the subject's default measure, no breakdown, all time, the
 * default order, no limit, the automatic chart, no conditions.
 */
export type ExpectedItem = {
  subject: ExpectedSubject;
  measure?: MeasureFn;
  mark?: number;
  /** A kind, or the name of the variable whose values group the learners. */
  breakdown?: Exclude<BreakdownKind, 'variable'> | { variable: string };
  period?: ReportPeriod;
  sort?: ReportSort;
  limit?: number;
  chart?: ReportChart;
  values?: ValueCondition[];
  activity?: { did: boolean; event: ActivityEvent; course: CourseKey | null }[];
  /** `filters.courseIds` beside the subject's own. */
  courseFilter?: CourseKey[];
};

export type GeneratorCase = {
  prompt: string;
  catalog?: CatalogVariant;
  /** The user's answers to an earlier question back. */
  choices?: { phrase: string; option: EntityRef }[];
  items: ExpectedItem[];
  /** Questions back the generator must ask (and nothing else). */
  ambiguities?: { phrase: string; options: EntityRef[] }[];
  /** Words each of which must appear in what the generator says it did not find (and nothing else). */
  notFound?: string[];
};

// ---- helpers that keep the cases short ----------------------------------------------------

const variable = (...refs: [CourseKey, string][]): ExpectedSubject => ({
  kind: 'variable',
  variables: refs.map(([course, name]) => ({ course, name })),
});
const agentVariable = (...refs: [AgentKey, string][]): ExpectedSubject => ({
  kind: 'chatbot_variable',
  variables: refs.map(([agent, name]) => ({ agent, name })),
});
const courses = (...keys: CourseKey[]): ExpectedSubject => ({ kind: 'courses', courses: keys });
const questions = (...keys: CourseKey[]): ExpectedSubject => ({ kind: 'questions', courses: keys });
const question = (course: CourseKey, slide: number): ExpectedSubject => ({
  kind: 'question',
  question: { course, slide },
});
const between = (from: string, to: string): ReportPeriod => ({ kind: 'between', from, to });
const lastDays = (days: number): ReportPeriod => ({ kind: 'last_days', days });
const hardestFirst: ReportSort = { by: 'measure', order: 'asc' };
const largestFirst: ReportSort = { by: 'measure', order: 'desc' };
const ALL_FINAL_SCORES: [CourseKey, string][] = (
  ['safety', 'onboarding', 'gdpr', 'leadership', 'service'] as const
).map((course) => [course, 'final_score']);

// ---- the cases -------------------------------------------------------------------------

export const GENERATOR_CASES: readonly GeneratorCase[] = [
  // The requests a user tried first.
  {
    prompt: 'Which questions do learners get wrong most',
    items: [{ subject: questions(), measure: 'correct_rate', breakdown: 'question', sort: hardestFirst }],
  },
  {
    prompt: 'how many learners completed each course this month',
    items: [
      {
        subject: courses(),
        measure: 'completions',
        breakdown: 'course',
        period: { kind: 'this', unit: 'month' },
      },
    ],
  },
  {
    prompt: 'pass rate of the safety check by department',
    items: [
      {
        subject: variable(['safety', 'passed_safety_check']),
        measure: 'pass_rate',
        breakdown: { variable: 'department' },
      },
    ],
  },
  {
    prompt: 'average time spent in the safety course by department',
    items: [
      {
        subject: variable(['safety', 'time_spent_minutes']),
        measure: 'average',
        breakdown: { variable: 'department' },
      },
    ],
  },
  {
    // "Scores" alone is no variable's name: the scores of the course runs.
    prompt: 'compare quiz scores between Safety and Onboarding',
    items: [{ subject: courses('safety', 'onboarding'), measure: 'average', breakdown: 'course' }],
  },

  // Questions.
  {
    prompt: 'hardest questions in GDPR',
    items: [
      { subject: questions('gdpr'), measure: 'correct_rate', breakdown: 'question', sort: hardestFirst },
    ],
  },
  {
    prompt: 'hardest questons in the customer service course',
    items: [
      { subject: questions('service'), measure: 'correct_rate', breakdown: 'question', sort: hardestFirst },
    ],
  },
  {
    prompt: 'easiest questions',
    items: [{ subject: questions(), measure: 'correct_rate', breakdown: 'question', sort: largestFirst }],
  },
  {
    prompt: 'most difficult question in leadership',
    items: [
      {
        subject: questions('leadership'),
        measure: 'correct_rate',
        breakdown: 'question',
        sort: hardestFirst,
      },
    ],
  },
  {
    prompt: 'points per question in the leadership course',
    items: [{ subject: questions('leadership'), measure: 'points', breakdown: 'question' }],
  },
  {
    prompt: 'how many responses did the gdpr quiz get last week',
    items: [{ subject: questions('gdpr'), measure: 'responses', period: { kind: 'last', unit: 'week' } }],
  },
  {
    prompt: 'correct rate of the fire extinguisher question',
    items: [{ subject: question('safety', 4), measure: 'correct_rate' }],
  },
  {
    prompt: 'breakdown of answers to the breach question',
    items: [{ subject: question('gdpr', 4), breakdown: 'answer' }],
  },
  {
    prompt: 'how did people answer question 3 of the safety course?',
    items: [{ subject: { kind: 'identifier', course: 'safety', questionNumber: 3 }, breakdown: 'answer' }],
  },
  {
    prompt: 'correct answers on slide 9 of workplace safety',
    items: [{ subject: { kind: 'identifier', course: 'safety', slideNumber: 9 }, measure: 'correct_rate' }],
  },
  {
    prompt: 'How many learners answered question 2 of the GDPR course?',
    items: [{ subject: { kind: 'identifier', course: 'gdpr', questionNumber: 2 }, measure: 'learners' }],
  },
  {
    // Every onboarding question is question 1 of its slide: which one?
    prompt: 'question 1 of onboarding',
    items: [],
    ambiguities: [
      {
        phrase: 'question 1',
        options: [2, 4, 5, 7, 9, 10].map((slide) => ({ kind: 'question', course: 'onboarding', slide })),
      },
    ],
  },
  {
    prompt: 'show me the phishing question results',
    items: [],
    notFound: ['phishing'],
  },

  // Courses: learners, completions, pass and completion rates.
  {
    prompt: 'how many people finished onboarding',
    items: [{ subject: courses('onboarding'), measure: 'completions' }],
  },
  {
    prompt: 'how many completed',
    items: [{ subject: courses(), measure: 'completions' }],
  },
  {
    prompt: 'completion rate per course last month',
    items: [
      {
        subject: courses(),
        measure: 'completion_rate',
        breakdown: 'course',
        period: { kind: 'last', unit: 'month' },
      },
    ],
  },
  {
    prompt: 'gdpr pass rate this quarter',
    items: [{ subject: courses('gdpr'), measure: 'pass_rate', period: { kind: 'this', unit: 'quarter' } }],
  },
  {
    prompt: 'pass rate by region in Q1',
    items: [
      {
        subject: courses(),
        measure: 'pass_rate',
        breakdown: { variable: 'region' },
        period: between('2026-01-01', '2026-03-31'),
      },
    ],
  },
  {
    prompt: 'monthly completions this year',
    items: [
      {
        subject: courses(),
        measure: 'completions',
        breakdown: 'month',
        period: { kind: 'this', unit: 'year' },
      },
    ],
  },
  {
    prompt: 'number of completions by week in the last 3 months',
    items: [{ subject: courses(), measure: 'completions', breakdown: 'week', period: lastDays(90) }],
  },
  {
    prompt: 'how many learners started each course in the last 30 days',
    items: [{ subject: courses(), measure: 'learners', breakdown: 'course', period: lastDays(30) }],
  },
  {
    prompt: 'How many people started the leadership course this year?',
    items: [{ subject: courses('leadership'), measure: 'learners', period: { kind: 'this', unit: 'year' } }],
  },
  {
    prompt: 'learners per department',
    items: [{ subject: courses(), measure: 'learners', breakdown: { variable: 'department' } }],
  },
  {
    prompt: 'number of learners in each region this year',
    items: [
      {
        subject: courses(),
        measure: 'learners',
        breakdown: { variable: 'region' },
        period: { kind: 'this', unit: 'year' },
      },
    ],
  },
  {
    prompt: 'how many learners per management level',
    items: [{ subject: courses(), measure: 'learners', breakdown: { variable: 'management_level' } }],
  },
  {
    prompt: 'which course has the lowest completion rate',
    items: [{ subject: courses(), measure: 'completion_rate', breakdown: 'course', sort: hardestFirst }],
  },
  {
    prompt: 'top 5 departments by pass rate',
    items: [
      {
        subject: courses(),
        measure: 'pass_rate',
        breakdown: { variable: 'department' },
        sort: largestFirst,
        limit: 5,
      },
    ],
  },
  {
    prompt: 'worst three regions by complition rate',
    items: [
      {
        subject: courses(),
        measure: 'completion_rate',
        breakdown: { variable: 'region' },
        sort: hardestFirst,
        limit: 3,
      },
    ],
  },
  {
    prompt: 'Completion rate for Customer Service Excellence vs Workplace Safety Essentials',
    items: [{ subject: courses('service', 'safety'), measure: 'completion_rate', breakdown: 'course' }],
  },
  {
    prompt: 'compare gdpr and leadership completion rates',
    items: [{ subject: courses('gdpr', 'leadership'), measure: 'completion_rate', breakdown: 'course' }],
  },
  {
    prompt: 'completions in Q3 2025',
    items: [{ subject: courses(), measure: 'completions', period: between('2025-07-01', '2025-09-30') }],
  },
  {
    prompt: 'GDPR completions in january',
    items: [
      { subject: courses('gdpr'), measure: 'completions', period: between('2026-01-01', '2026-01-31') },
    ],
  },
  {
    // Q3 of this year has not begun on the day the cases are read: the last one.
    prompt: 'Q3 scores for leadership',
    items: [
      { subject: courses('leadership'), measure: 'average', period: between('2025-07-01', '2025-09-30') },
    ],
  },
  {
    prompt: 'average score per department',
    items: [{ subject: courses(), measure: 'average', breakdown: { variable: 'department' } }],
  },
  {
    prompt: 'weekly active learners',
    items: [{ subject: courses(), measure: 'learners', breakdown: 'week' }],
  },
  {
    prompt: 'bar chart of completion rate by department',
    items: [
      {
        subject: courses(),
        measure: 'completion_rate',
        breakdown: { variable: 'department' },
        chart: 'bar',
      },
    ],
  },
  {
    prompt: 'line chart of daily completions last week',
    items: [
      {
        subject: courses(),
        measure: 'completions',
        breakdown: 'day',
        period: { kind: 'last', unit: 'week' },
        chart: 'line',
      },
    ],
  },
  {
    prompt: 'pie chart of learners by region',
    items: [{ subject: courses(), measure: 'learners', breakdown: { variable: 'region' }, chart: 'pie' }],
  },
  {
    prompt: 'leaderboard for customer service',
    items: [{ subject: courses('service'), measure: 'average', breakdown: 'learner', chart: 'leaderboard' }],
  },
  {
    prompt: 'top 10 learners',
    items: [{ subject: courses(), measure: 'average', breakdown: 'learner', limit: 10 }],
  },

  // Who did or did not do something.
  {
    prompt: "who hasn't completed the GDPR course",
    items: [
      {
        subject: courses(),
        breakdown: 'learner',
        activity: [{ did: false, event: 'completed', course: 'gdpr' }],
      },
    ],
  },
  {
    prompt: 'who failed the GDPR course',
    items: [
      {
        subject: courses(),
        breakdown: 'learner',
        activity: [{ did: true, event: 'failed', course: 'gdpr' }],
      },
    ],
  },
  {
    prompt: "learners who haven't started leadership foundations",
    items: [
      {
        subject: courses(),
        breakdown: 'learner',
        activity: [{ did: false, event: 'started', course: 'leadership' }],
      },
    ],
  },
  {
    prompt: 'learners who completed safety but not gdpr',
    items: [
      {
        subject: courses(),
        breakdown: 'learner',
        activity: [
          { did: true, event: 'completed', course: 'safety' },
          { did: false, event: 'completed', course: 'gdpr' },
        ],
      },
    ],
  },
  {
    prompt: 'final score in leadership for people who completed onboarding',
    items: [
      {
        subject: variable(['leadership', 'final_score']),
        activity: [{ did: true, event: 'completed', course: 'onboarding' }],
      },
    ],
  },
  {
    prompt: 'average confidence by department for people who passed gdpr',
    items: [
      {
        subject: variable(['gdpr', 'confidence_level']),
        measure: 'average',
        breakdown: { variable: 'department' },
        activity: [{ did: true, event: 'passed', course: 'gdpr' }],
      },
    ],
  },

  // Variables.
  {
    prompt: 'avg satisfaction for sales',
    items: [{ subject: variable(['onboarding', 'satisfaction_rating']), measure: 'average' }],
    notFound: ['sales'],
  },
  {
    prompt: 'top 10 learners by final score in leadership',
    items: [{ subject: variable(['leadership', 'final_score']), breakdown: 'learner', limit: 10 }],
  },
  {
    prompt: 'weekly trend of new hire satisfaction',
    items: [{ subject: variable(['onboarding', 'satisfaction_rating']), breakdown: 'week' }],
  },
  {
    prompt: 'satisfacton trend by month',
    items: [{ subject: variable(['onboarding', 'satisfaction_rating']), breakdown: 'month' }],
  },
  {
    prompt: 'satisfaction since march',
    items: [
      {
        subject: variable(['onboarding', 'satisfaction_rating']),
        period: between('2026-03-01', '2026-05-14'),
      },
    ],
  },
  {
    prompt: 'Average satisfaction rating of new hires by department, last 90 days',
    items: [
      {
        subject: variable(['onboarding', 'satisfaction_rating']),
        measure: 'average',
        breakdown: { variable: 'department' },
        period: lastDays(90),
      },
    ],
  },
  {
    prompt: 'nps score by region',
    items: [{ subject: variable(['service', 'nps_score']), breakdown: { variable: 'region' } }],
  },
  {
    prompt: 'NPS by month',
    items: [{ subject: variable(['service', 'nps_score']), breakdown: 'month' }],
  },
  {
    prompt: 'likelihood to recommend by region',
    items: [{ subject: variable(['service', 'nps_score']), breakdown: { variable: 'region' } }],
  },
  {
    prompt: '% of managers who would recommend leadership foundations',
    items: [{ subject: variable(['leadership', 'would_recommend']), measure: 'pass_rate' }],
  },
  {
    prompt: 'how many new hires have their IT setup complete',
    items: [
      {
        subject: variable(['onboarding', 'it_setup_complete']),
        measure: 'learners',
        values: [{ variableName: null, op: 'eq', value: true }],
      },
    ],
  },
  {
    prompt: 'IT setup complete by department',
    items: [
      {
        subject: variable(['onboarding', 'it_setup_complete']),
        measure: 'pass_rate',
        breakdown: { variable: 'department' },
      },
    ],
  },
  {
    prompt: 'passed safety check per region',
    items: [
      {
        subject: variable(['safety', 'passed_safety_check']),
        measure: 'pass_rate',
        breakdown: { variable: 'region' },
      },
    ],
  },
  {
    prompt: 'average final score by course',
    items: [{ subject: variable(...ALL_FINAL_SCORES), measure: 'average', breakdown: 'course' }],
  },
  {
    prompt: 'avergae final score by departmnet',
    items: [
      { subject: variable(...ALL_FINAL_SCORES), measure: 'average', breakdown: { variable: 'department' } },
    ],
  },
  {
    prompt: 'show final scores for gdpr and safety side by side',
    items: [
      {
        subject: variable(['gdpr', 'final_score'], ['safety', 'final_score']),
        breakdown: 'course',
      },
    ],
  },
  {
    prompt: 'department breakdown of gdpr final scores',
    items: [{ subject: variable(['gdpr', 'final_score']), breakdown: { variable: 'department' } }],
  },
  {
    prompt: 'show me a table of final scores per learner for GDPR',
    items: [{ subject: variable(['gdpr', 'final_score']), breakdown: 'learner', chart: 'table' }],
  },
  {
    prompt: 'median time spent on workplace safety',
    items: [{ subject: variable(['safety', 'time_spent_minutes']), measure: 'median' }],
  },
  {
    prompt: 'avg time spent per course',
    items: [{ subject: variable(['safety', 'time_spent_minutes']), measure: 'average', breakdown: 'course' }],
  },
  {
    prompt: 'average team size of new managers',
    items: [{ subject: variable(['leadership', 'team_size']), measure: 'average' }],
  },
  {
    prompt: 'confidence after the gdpr training by management level',
    items: [
      {
        subject: variable(['gdpr', 'confidence_level']),
        breakdown: { variable: 'management_level' },
      },
    ],
  },
  {
    prompt: 'compare satisfaction and confidence',
    items: [
      { subject: variable(['onboarding', 'satisfaction_rating']) },
      { subject: variable(['gdpr', 'confidence_level']) },
    ],
  },
  {
    prompt: 'final score and time spent for safety by department',
    items: [
      { subject: variable(['safety', 'final_score']), breakdown: { variable: 'department' } },
      { subject: variable(['safety', 'time_spent_minutes']), breakdown: { variable: 'department' } },
    ],
  },

  // What the catalog does not have.
  {
    prompt: 'revenue by region',
    items: [],
    notFound: ['revenue'],
  },

  // Names that match two courses; answers to the question back.
  {
    prompt: 'pass rate of the safety course',
    catalog: 'extended',
    items: [],
    ambiguities: [
      {
        phrase: 'safety',
        options: [
          { kind: 'course', course: 'safety' },
          { kind: 'course', course: 'fire' },
        ],
      },
    ],
  },
  {
    prompt: 'pass rate of the safety course',
    catalog: 'extended',
    choices: [{ phrase: 'safety', option: { kind: 'course', course: 'fire' } }],
    items: [{ subject: courses('fire'), measure: 'pass_rate' }],
  },
  {
    prompt: 'hardest questions in onboarding',
    catalog: 'extended',
    items: [],
    ambiguities: [
      {
        phrase: 'onboarding',
        options: [
          { kind: 'course', course: 'onboarding' },
          { kind: 'course', course: 'managerOnboarding' },
        ],
      },
    ],
  },
  {
    prompt: 'hardest questions in new hire onboarding',
    catalog: 'extended',
    items: [
      {
        subject: questions('onboarding'),
        measure: 'correct_rate',
        breakdown: 'question',
        sort: hardestFirst,
      },
    ],
  },
  {
    // Only one of the two onboarding courses has a satisfaction variable.
    prompt: 'onboarding satisfaction',
    catalog: 'extended',
    items: [{ subject: variable(['onboarding', 'satisfaction_rating']) }],
  },
  {
    // "New managers" names the leadership course more fully than "manager" names the other.
    prompt: 'final score of the new managers course',
    catalog: 'extended',
    items: [{ subject: variable(['leadership', 'final_score']) }],
  },

  // Agent variables: values custom AI agents captured while chatting.
  {
    prompt: 'how many learners told the onboarding agent their role',
    items: [{ subject: agentVariable(['onboardingAssistant', 'role']), measure: 'learners' }],
  },
  {
    // Captured by both agents: one item compares them.
    prompt: 'favourite_topic values by agent',
    items: [
      {
        subject: agentVariable(
          ['onboardingAssistant', 'favourite_topic'],
          ['careerCoach', 'favourite_topic'],
        ),
        measure: 'values',
        breakdown: 'agent',
      },
    ],
  },
  {
    prompt: 'how many learners told the career coach their favourite topic',
    items: [{ subject: agentVariable(['careerCoach', 'favourite_topic']), measure: 'learners' }],
  },
  {
    prompt: 'average motivation per chatbot this month',
    items: [
      {
        subject: agentVariable(['careerCoach', 'motivation']),
        measure: 'average',
        breakdown: 'agent',
        period: { kind: 'this', unit: 'month' },
      },
    ],
  },
  {
    prompt: 'median motivation for each agent',
    items: [{ subject: agentVariable(['careerCoach', 'motivation']), measure: 'median', breakdown: 'agent' }],
  },
  {
    prompt: "show each learner's job role from the onboarding assistant",
    items: [{ subject: agentVariable(['onboardingAssistant', 'role']), breakdown: 'learner' }],
  },
  {
    prompt: 'motivation over time since january',
    items: [
      {
        subject: agentVariable(['careerCoach', 'motivation']),
        breakdown: 'week',
        period: between('2026-01-01', '2026-05-14'),
      },
    ],
  },
  {
    prompt: 'how many learners feel ready',
    items: [
      {
        subject: agentVariable(['onboardingAssistant', 'feels_ready']),
        measure: 'learners',
        values: [{ variableName: null, op: 'eq', value: true }],
      },
    ],
  },
  {
    prompt: '% of learners who feel ready by department',
    items: [
      {
        subject: agentVariable(['onboardingAssistant', 'feels_ready']),
        measure: 'pass_rate',
        breakdown: { variable: 'department' },
      },
    ],
  },
  {
    prompt: 'compare favourite topics across agents',
    items: [
      {
        subject: agentVariable(
          ['onboardingAssistant', 'favourite_topic'],
          ['careerCoach', 'favourite_topic'],
        ),
        breakdown: 'agent',
      },
    ],
  },
  {
    prompt: 'next review dates by agent',
    items: [{ subject: agentVariable(['careerCoach', 'next_review_date']), breakdown: 'agent' }],
  },
  {
    // The report model groups an agent variable by learner, agent, time or a
    // course variable, never by its own values: said, not guessed.
    prompt: 'most common favourite topics',
    items: [
      {
        subject: agentVariable(
          ['onboardingAssistant', 'favourite_topic'],
          ['careerCoach', 'favourite_topic'],
        ),
      },
    ],
    notFound: ['most common'],
  },
  {
    prompt: 'average job role',
    items: [{ subject: agentVariable(['onboardingAssistant', 'role']) }],
    notFound: ['average needs a number'],
  },
  {
    // An agent's values belong to no course: the item reads every agent's, and says why.
    prompt: 'favourite topic in the gdpr course',
    items: [
      {
        subject: agentVariable(
          ['onboardingAssistant', 'favourite_topic'],
          ['careerCoach', 'favourite_topic'],
        ),
      },
    ],
    notFound: ['belong to agents'],
  },
  {
    prompt: 'role by course',
    items: [{ subject: agentVariable(['onboardingAssistant', 'role']) }],
    notFound: ['by course: not possible'],
  },
  {
    // Feedback is a course variable and an agent variable: which one?
    prompt: 'show me all feedback',
    items: [],
    ambiguities: [
      {
        phrase: 'feedback',
        options: [
          { kind: 'variable', course: 'safety', name: 'feedback' },
          { kind: 'agentVariable', agent: 'careerCoach', name: 'feedback' },
        ],
      },
    ],
  },
  {
    prompt: 'show me all feedback',
    choices: [
      { phrase: 'feedback', option: { kind: 'agentVariable', agent: 'careerCoach', name: 'feedback' } },
    ],
    items: [{ subject: agentVariable(['careerCoach', 'feedback']) }],
  },
  {
    // The agent named tells which feedback.
    prompt: 'feedback given to the career coach',
    items: [{ subject: agentVariable(['careerCoach', 'feedback']) }],
  },

  // Values of text variables, when the catalog knows them.
  {
    prompt: 'avg satisfaction for sales',
    catalog: 'withValues',
    items: [
      {
        subject: variable(['onboarding', 'satisfaction_rating']),
        measure: 'average',
        values: [{ variableName: 'department', op: 'eq', value: 'Sales' }],
      },
    ],
  },
  {
    prompt: 'completion rate in EMEA by course',
    catalog: 'withValues',
    items: [
      {
        subject: courses(),
        measure: 'completion_rate',
        breakdown: 'course',
        values: [{ variableName: 'region', op: 'eq', value: 'EMEA' }],
      },
    ],
  },
];

/**
 * Held out: written once the parser passed the cases above, and run once
 * before any change, to see whether it understands requests it was not
 * built against. Only general faults were fixed afterwards.
 */
export const HELD_OUT_CASES: readonly GeneratorCase[] = [
  {
    prompt: 'show the completion rate of each course for the last 6 months',
    items: [{ subject: courses(), measure: 'completion_rate', breakdown: 'course', period: lastDays(180) }],
  },
  {
    prompt: 'Average NPS per region this quarter',
    items: [
      {
        subject: variable(['service', 'nps_score']),
        measure: 'average',
        breakdown: { variable: 'region' },
        period: { kind: 'this', unit: 'quarter' },
      },
    ],
  },
  {
    prompt: 'how many learners passed the safety course',
    items: [
      {
        subject: courses('safety'),
        measure: 'learners',
        activity: [{ did: true, event: 'passed', course: 'safety' }],
      },
    ],
  },
  {
    prompt: 'what % of learners passed gdpr',
    items: [{ subject: courses('gdpr'), measure: 'pass_rate' }],
  },
  {
    prompt: 'time spent by region',
    items: [{ subject: variable(['safety', 'time_spent_minutes']), breakdown: { variable: 'region' } }],
  },
  {
    prompt: 'which departments have the lowest satisfaction',
    items: [
      {
        subject: variable(['onboarding', 'satisfaction_rating']),
        breakdown: { variable: 'department' },
        sort: hardestFirst,
      },
    ],
  },
  {
    prompt: 'answers to question 4 of the gdpr course',
    items: [{ subject: { kind: 'identifier', course: 'gdpr', questionNumber: 4 }, breakdown: 'answer' }],
  },
  {
    prompt: 'hardest 5 questions',
    items: [
      { subject: questions(), measure: 'correct_rate', breakdown: 'question', sort: hardestFirst, limit: 5 },
    ],
  },
  {
    prompt: 'learners who did not complete onboarding this month',
    items: [
      {
        subject: courses(),
        breakdown: 'learner',
        period: { kind: 'this', unit: 'month' },
        activity: [{ did: false, event: 'completed', course: 'onboarding' }],
      },
    ],
  },
  {
    prompt: 'customer service certification rate by region',
    items: [
      {
        subject: variable(['service', 'certified']),
        measure: 'pass_rate',
        breakdown: { variable: 'region' },
      },
    ],
  },
  {
    prompt: 'compare final scores across all courses',
    items: [{ subject: variable(...ALL_FINAL_SCORES), breakdown: 'course' }],
  },
  {
    prompt: 'trend of completions since january',
    items: [
      {
        subject: courses(),
        measure: 'completions',
        breakdown: 'week',
        period: between('2026-01-01', '2026-05-14'),
      },
    ],
  },
  {
    prompt: 'median final score for new hires',
    items: [{ subject: variable(['onboarding', 'final_score']), measure: 'median' }],
  },
  {
    prompt: 'satisfaction of new hires in the last two weeks by department',
    items: [
      {
        subject: variable(['onboarding', 'satisfaction_rating']),
        breakdown: { variable: 'department' },
        period: lastDays(14),
      },
    ],
  },
  {
    prompt: 'which region has the most learners',
    items: [
      { subject: courses(), measure: 'learners', breakdown: { variable: 'region' }, sort: largestFirst },
    ],
  },
  {
    prompt: 'count of learners who completed leadership foundations in 2025',
    items: [
      {
        subject: courses(),
        measure: 'learners',
        period: between('2025-01-01', '2025-12-31'),
        activity: [{ did: true, event: 'completed', course: 'leadership' }],
      },
    ],
  },
  {
    prompt: 'percentage of it setup complete per department',
    items: [
      {
        subject: variable(['onboarding', 'it_setup_complete']),
        measure: 'pass_rate',
        breakdown: { variable: 'department' },
      },
    ],
  },
  {
    prompt: 'daily learners last 7 days',
    items: [{ subject: courses(), measure: 'learners', breakdown: 'day', period: lastDays(7) }],
  },
  {
    prompt: 'wrong answers by question for customer service',
    items: [
      { subject: questions('service'), measure: 'correct_rate', breakdown: 'question', sort: hardestFirst },
    ],
  },
  {
    prompt: 'leaderboard of final scores in the gdpr course, top 20',
    items: [
      {
        subject: variable(['gdpr', 'final_score']),
        breakdown: 'learner',
        limit: 20,
        chart: 'leaderboard',
      },
    ],
  },
  {
    prompt: 'pass rate of the safety check for each management level',
    items: [
      {
        subject: variable(['safety', 'passed_safety_check']),
        measure: 'pass_rate',
        breakdown: { variable: 'management_level' },
      },
    ],
  },
  {
    prompt: 'how many people in each department completed gdpr',
    items: [{ subject: courses('gdpr'), measure: 'completions', breakdown: { variable: 'department' } }],
  },
  {
    prompt: 'feedback in the leadership course',
    items: [{ subject: variable(['leadership', 'feedback']) }],
  },
  {
    prompt: 'how many responses per question last month',
    items: [
      {
        subject: questions(),
        measure: 'responses',
        breakdown: 'question',
        period: { kind: 'last', unit: 'month' },
      },
    ],
  },
  {
    prompt: 'average score by course in Q4 2025',
    items: [
      {
        subject: courses(),
        measure: 'average',
        breakdown: 'course',
        period: between('2025-10-01', '2025-12-31'),
      },
    ],
  },
];
