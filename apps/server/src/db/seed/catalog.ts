import type { VariableDataType } from '../schema';
import { clamp, type Random } from './random';

// What the demo organization teaches: realistic courses with their quiz
// questions (difficulty = the share of average learners who answer right) and
// the variables their courses report, each with how its value is produced.

export type LearnerProfile = {
  firstName: string;
  lastName: string;
  department: string;
  region: string;
  /** Standard-normal skill: shifts every question's odds. */
  ability: number;
  /** 0.5 (drops out easily) to 1.5 (sticks with it). */
  persistence: number;
  managementLevel: string;
  teamSize: number;
};

export type RunOutcome = {
  attempt: number;
  startedAt: Date;
  /** Time of the last thing the learner did in this run. */
  lastActivityAt: Date;
  completedAt: Date | null;
  /** 0-100 over all questions (unanswered count as wrong). */
  score: number;
  passed: boolean;
  minutes: number;
};

export type ValueContext = { random: Random; learner: LearnerProfile; run: RunOutcome };

export type RawValue = string | number | boolean | Date;

export type VariableSpec = {
  name: string;
  title: string;
  description: string;
  dataType: VariableDataType;
  /** `start`: when the run begins; `end`: on completion; `exit`: at the last activity, completed or not. */
  recordedAt: 'start' | 'end' | 'exit';
  /** The value, or undefined when the course would not report one. */
  produce: (context: ValueContext) => RawValue | undefined;
};

export type QuestionSpec = {
  slide: number;
  number: number;
  text: string;
  /** The first choice is the correct one; the next ones are ever less tempting distractors. */
  choices: readonly [string, ...string[]];
  difficulty: number;
  points: number;
};

export type CourseSpec = {
  title: string;
  description: string;
  externalCourseId: string;
  /** Share of learners who take the course. */
  popularity: number;
  slides: number;
  /** Chance per slide of leaving, and slides where many leave (e.g. a long video). */
  dropPerSlide: number;
  dropSpikes: Readonly<Record<number, number>>;
  minutesPerSlide: readonly [number, number];
  /** What the course reports as each slide's title, slide 1 first (a missing one is "Slide N"). */
  slideTitles?: readonly string[];
  /** The course's scenes, each from its first slide on, in slide order. */
  scenes?: readonly (readonly [firstSlide: number, name: string])[];
  passMark: number;
  questions: readonly QuestionSpec[];
  variables: readonly VariableSpec[];
  broadcasts: readonly string[];
};

export const DEPARTMENTS: readonly (readonly [string, number])[] = [
  ['Operations', 22],
  ['Sales', 16],
  ['Customer Support', 14],
  ['Engineering', 13],
  ['Logistics', 10],
  ['Finance', 7],
  ['Marketing', 7],
  ['Human Resources', 6],
  ['Legal', 3],
];

export const REGIONS: readonly (readonly [string, number])[] = [
  ['EMEA', 40],
  ['North America', 33],
  ['APAC', 18],
  ['LATAM', 9],
];

const POSITIVE_FEEDBACK = [
  'Clear and practical, I can use this tomorrow.',
  'Great examples, the scenarios felt like real situations at work.',
  'Short and to the point. More courses like this please.',
  'The quiz made me think. Good refresher.',
  'Loved the interactive parts.',
  'Well structured and easy to follow on my phone.',
];
const NEUTRAL_FEEDBACK = [
  'Good content, but a bit long.',
  'Some slides were too text-heavy.',
  'Useful, though I knew most of it already.',
  'The video in the middle could be shorter.',
  'OK overall. Audio was quiet in places.',
];
const NEGATIVE_FEEDBACK = [
  'Too long and the questions were confusing.',
  'The assessment asks about things the course barely covers.',
  'Hard to find time for this during busy weeks.',
  'Navigation was confusing, I got lost after the video.',
];

function feedback({ random, run }: ValueContext): string | undefined {
  if (!random.chance(0.3)) return undefined;
  if (run.score >= 80) return random.pick(random.chance(0.8) ? POSITIVE_FEEDBACK : NEUTRAL_FEEDBACK);
  if (run.score >= 55) return random.pick(random.chance(0.6) ? NEUTRAL_FEEDBACK : POSITIVE_FEEDBACK);
  return random.pick(random.chance(0.6) ? NEGATIVE_FEEDBACK : NEUTRAL_FEEDBACK);
}

/** A 1-5 rating that follows how the run went, with noise. */
function rating(random: Random, score: number): number {
  return Math.round(clamp(random.normal(1.5 + score / 30, 0.8), 1, 5));
}

const finalScore: VariableSpec = {
  name: 'final_score',
  title: 'Final score',
  description: 'Score of the final assessment, 0 to 100.',
  dataType: 'number',
  recordedAt: 'end',
  produce: ({ run }) => run.score,
};

const timeSpent: VariableSpec = {
  name: 'time_spent_minutes',
  title: 'Time spent (minutes)',
  description: 'Minutes spent in the course during this attempt.',
  dataType: 'number',
  recordedAt: 'exit',
  produce: ({ run }) => run.minutes,
};

const department: VariableSpec = {
  name: 'department',
  title: 'Department',
  description: 'Department the learner selected on the first slide.',
  dataType: 'text',
  recordedAt: 'start',
  produce: ({ learner }) => learner.department,
};

const completionDate: VariableSpec = {
  name: 'completion_date',
  title: 'Completion date',
  description: 'When the learner finished the course.',
  dataType: 'date',
  recordedAt: 'end',
  produce: ({ run }) => run.completedAt ?? undefined,
};

const feedbackVariable: VariableSpec = {
  name: 'feedback',
  title: 'Feedback',
  description: 'Free-text feedback from the last slide (optional).',
  dataType: 'text',
  recordedAt: 'end',
  produce: feedback,
};

export const COURSES: readonly CourseSpec[] = [
  {
    title: 'Workplace Safety Essentials',
    description:
      'Fire safety, manual handling, hazard signs and incident reporting: the yearly safety course for every employee.',
    externalCourseId: 'workplace-safety-essentials',
    popularity: 0.8,
    slides: 14,
    dropPerSlide: 0.012,
    dropSpikes: { 8: 0.08 },
    minutesPerSlide: [1, 3],
    slideTitles: [
      'Welcome',
      'Why safety matters',
      'Raising the alarm',
      'Fire extinguishers',
      'Your workstation',
      'Screen breaks',
      'Hazard signs',
      'Manual handling video',
      'Lifting safely',
      'Reporting near misses',
      'Risk assessment',
      'Hierarchy of controls',
      'Machine guarding',
      'Summary',
    ],
    scenes: [
      [1, 'Introduction'],
      [3, 'Fire safety'],
      [5, 'Ergonomics'],
      [7, 'Hazards and handling'],
      [11, 'Controls'],
      [14, 'Wrap-up'],
    ],
    passMark: 70,
    questions: [
      {
        slide: 3,
        number: 1,
        text: 'What is the first thing you should do when you discover a fire?',
        choices: ['Raise the alarm', 'Try to put it out', 'Collect your belongings', 'Call your manager'],
        difficulty: 0.9,
        points: 10,
      },
      {
        slide: 4,
        number: 2,
        text: 'Which type of fire extinguisher should be used on an electrical fire?',
        choices: ['CO2', 'Water', 'Foam', 'Wet chemical'],
        difficulty: 0.58,
        points: 10,
      },
      {
        slide: 6,
        number: 3,
        text: 'How often should you take a short break from screen work?',
        choices: [
          'Every hour, for 5 to 10 minutes',
          'Every four hours',
          'Only at lunch',
          'Breaks are optional',
        ],
        difficulty: 0.8,
        points: 10,
      },
      {
        slide: 7,
        number: 4,
        text: 'What does a yellow triangular sign indicate?',
        choices: ['A warning of a hazard', 'A mandatory action', 'A safe condition', 'A prohibited action'],
        difficulty: 0.76,
        points: 10,
      },
      {
        slide: 9,
        number: 5,
        text: 'What is the recommended maximum load for one person to lift unaided at waist height?',
        choices: ['25 kg', '10 kg', '40 kg', 'There is no limit'],
        difficulty: 0.38,
        points: 10,
      },
      {
        slide: 10,
        number: 6,
        text: 'Who should you report a near miss to?',
        choices: [
          'Your supervisor or the safety officer',
          'No one, if nobody was hurt',
          'HR at the end of the year',
          'Only the insurer',
        ],
        difficulty: 0.86,
        points: 10,
      },
      {
        slide: 12,
        number: 7,
        text: 'In which order are the hierarchy of controls applied?',
        choices: [
          'Eliminate, substitute, engineer, administer, protect (PPE)',
          'PPE first, then administrative controls',
          'Substitute, eliminate, PPE, engineer, administer',
          'Any order, as long as all are used',
        ],
        difficulty: 0.32,
        points: 10,
      },
      {
        slide: 13,
        number: 8,
        text: 'When may a machine guard be removed?',
        choices: [
          'Only when the machine is locked out by an authorised person',
          'When the machine runs slowly',
          'When you are in a hurry',
          'When a colleague is watching',
        ],
        difficulty: 0.72,
        points: 10,
      },
    ],
    variables: [
      finalScore,
      timeSpent,
      department,
      {
        name: 'passed_safety_check',
        title: 'Passed safety check',
        description: 'True when the final score reached the pass mark (70).',
        dataType: 'boolean',
        recordedAt: 'end',
        produce: ({ run }) => run.passed,
      },
      completionDate,
      feedbackVariable,
    ],
    broadcasts: [
      'Reminder: the yearly safety refresher is due by the end of the quarter.',
      'New fire assembly point: the north car park, from Monday.',
    ],
  },
  {
    title: 'New Hire Onboarding',
    description:
      'Everything a new colleague needs in the first weeks: tools, policies, benefits and who to ask.',
    externalCourseId: 'new-hire-onboarding',
    popularity: 0.42,
    slides: 12,
    dropPerSlide: 0.01,
    dropSpikes: { 6: 0.05 },
    minutesPerSlide: [1, 4],
    slideTitles: [
      'Welcome to Acme',
      'The employee handbook',
      'Your first week',
      'Benefits enrolment',
      'Time off',
      'Meet the leadership team',
      'IT setup',
      'Tools we use',
      'Working hours',
      'Staying secure',
      'Who to ask',
      'Next steps',
    ],
    scenes: [
      [1, 'Welcome'],
      [3, 'People and benefits'],
      [7, 'Tools and IT'],
      [9, 'Ways of working'],
      [12, 'Wrap-up'],
    ],
    passMark: 60,
    questions: [
      {
        slide: 2,
        number: 1,
        text: 'Where do you find the employee handbook?',
        choices: [
          'On the intranet, under People',
          'In your welcome e-mail only',
          'At the reception desk',
          'There is no handbook',
        ],
        difficulty: 0.88,
        points: 5,
      },
      {
        slide: 4,
        number: 1,
        text: 'How many days do you have to enrol in the benefits plan?',
        choices: ['30 days', '7 days', '90 days', 'There is no deadline'],
        difficulty: 0.52,
        points: 5,
      },
      {
        slide: 5,
        number: 1,
        text: 'Who approves your time-off requests?',
        choices: ['Your line manager', 'HR', 'Payroll', 'Your onboarding buddy'],
        difficulty: 0.9,
        points: 5,
      },
      {
        slide: 7,
        number: 1,
        text: 'Which tool do you use to report an IT issue?',
        choices: [
          'The service desk portal',
          'An e-mail to the CEO',
          'The team chat',
          'A sticky note on your monitor',
        ],
        difficulty: 0.8,
        points: 5,
      },
      {
        slide: 9,
        number: 1,
        text: 'What are the core working hours?',
        choices: ['10:00 to 16:00', '08:00 to 12:00', '13:00 to 17:00', 'There are no core hours'],
        difficulty: 0.44,
        points: 5,
      },
      {
        slide: 10,
        number: 1,
        text: 'What should you do with a suspicious e-mail?',
        choices: [
          'Report it with the Report Phishing button',
          'Delete it',
          'Forward it to your team',
          'Reply and ask who sent it',
        ],
        difficulty: 0.82,
        points: 5,
      },
    ],
    variables: [
      finalScore,
      department,
      {
        name: 'start_date',
        title: 'Start date',
        description: 'The new hire’s first day.',
        dataType: 'date',
        recordedAt: 'start',
        produce: ({ random, run }) => new Date(run.startedAt.getTime() - random.int(0, 6) * 86_400_000),
      },
      {
        name: 'it_setup_complete',
        title: 'IT setup complete',
        description: 'Laptop, accounts and MFA were ready when the course was finished.',
        dataType: 'boolean',
        recordedAt: 'end',
        produce: ({ random }) => random.chance(0.87),
      },
      {
        name: 'satisfaction_rating',
        title: 'Satisfaction (1-5)',
        description: 'How satisfied the new hire is with their onboarding.',
        dataType: 'number',
        recordedAt: 'end',
        produce: ({ random, run }) => rating(random, run.score),
      },
      feedbackVariable,
    ],
    broadcasts: ['Welcome to the spring cohort! Your buddy will reach out this week.'],
  },
  {
    title: 'Data Privacy & GDPR Fundamentals',
    description: 'Personal data, lawful bases, data subject requests, breaches and international transfers.',
    externalCourseId: 'data-privacy-gdpr',
    popularity: 0.6,
    slides: 16,
    dropPerSlide: 0.015,
    dropSpikes: { 9: 0.06, 13: 0.04 },
    minutesPerSlide: [1, 3],
    slideTitles: [
      'Introduction',
      'What is personal data?',
      'The GDPR principles',
      'Data breaches',
      'Lawful bases',
      'Data subjects',
      'Subject access requests',
      'Special category data',
      'Case study: the lost laptop',
      'Retention',
      'Handling mistakes',
      'Privacy by design',
      'Vendor management',
      'International transfers',
      'Transfer safeguards',
      'Summary',
    ],
    scenes: [
      [1, 'Foundations'],
      [4, 'Breaches and lawful bases'],
      [6, 'Rights of individuals'],
      [9, 'In practice'],
      [12, 'Privacy by design'],
      [14, 'Transfers'],
      [16, 'Wrap-up'],
    ],
    passMark: 70,
    questions: [
      {
        slide: 2,
        number: 1,
        text: 'What counts as personal data?',
        choices: [
          'Any information relating to an identifiable person',
          'Only names and addresses',
          'Only financial data',
          'Only data marked confidential',
        ],
        difficulty: 0.78,
        points: 10,
      },
      {
        slide: 4,
        number: 2,
        text: 'How long does an organisation have to report a qualifying breach to the regulator?',
        choices: ['72 hours', '24 hours', '7 days', '30 days'],
        difficulty: 0.55,
        points: 10,
      },
      {
        slide: 5,
        number: 3,
        text: 'Which of these is a lawful basis for processing personal data?',
        choices: ['Legitimate interests', 'Curiosity', 'Marketing convenience', 'Low cost'],
        difficulty: 0.7,
        points: 10,
      },
      {
        slide: 7,
        number: 4,
        text: 'A customer asks for a copy of their data. How long do you normally have to respond?',
        choices: ['One month', 'One week', 'Three months', 'There is no deadline'],
        difficulty: 0.48,
        points: 10,
      },
      {
        slide: 8,
        number: 5,
        text: 'Which of these is special category data?',
        choices: ['Health information', 'Job title', 'Work e-mail address', 'Office location'],
        difficulty: 0.66,
        points: 10,
      },
      {
        slide: 11,
        number: 6,
        text: 'You receive a spreadsheet of customer data by mistake. What should you do?',
        choices: [
          'Report it to the privacy team and delete it',
          'Keep it in case it is useful',
          'Forward it to the right person',
          'Ignore it',
        ],
        difficulty: 0.8,
        points: 10,
      },
      {
        slide: 12,
        number: 7,
        text: 'What does "privacy by design" require?',
        choices: [
          'Building data protection into systems from the start',
          'Adding a privacy notice at launch',
          'Encrypting e-mails only',
          'A yearly audit',
        ],
        difficulty: 0.41,
        points: 10,
      },
      {
        slide: 15,
        number: 8,
        text: 'Which transfer needs extra safeguards?',
        choices: [
          'Personal data sent to a country without an adequacy decision',
          'Data shared with a colleague in the same office',
          'A backup to an approved EU data centre',
          'Printing a report',
        ],
        difficulty: 0.29,
        points: 10,
      },
    ],
    variables: [
      finalScore,
      {
        name: 'passed_assessment',
        title: 'Passed assessment',
        description: 'True when the final score reached the pass mark (70).',
        dataType: 'boolean',
        recordedAt: 'end',
        produce: ({ run }) => run.passed,
      },
      completionDate,
      {
        name: 'confidence_level',
        title: 'Confidence (1-5)',
        description: 'How confident the learner feels handling personal data after the course.',
        dataType: 'number',
        recordedAt: 'end',
        produce: ({ random, run }) => rating(random, run.score),
      },
    ],
    broadcasts: [],
  },
  {
    title: 'Leadership Foundations for New Managers',
    description: 'One-to-ones, feedback, goals, delegation and building a team people want to be part of.',
    externalCourseId: 'leadership-foundations',
    popularity: 0.18,
    slides: 20,
    dropPerSlide: 0.018,
    dropSpikes: { 11: 0.07 },
    minutesPerSlide: [2, 5],
    slideTitles: [
      'Welcome, new manager',
      'From peer to manager',
      'One-to-ones',
      'Giving feedback',
      'The SBI model',
      'Coaching conversations',
      'The GROW model',
      'Performance basics',
      'Missed deadlines',
      'Difficult conversations',
      'Role play video',
      'Setting goals',
      'Motivation',
      'Building trust',
      'Psychological safety',
      'Running meetings',
      'Delegation',
      'Levels of delegation',
      'Your first 90 days',
      'Summary',
    ],
    scenes: [
      [1, 'Becoming a manager'],
      [3, 'Feedback'],
      [6, 'Coaching'],
      [8, 'Performance'],
      [12, 'Goals and motivation'],
      [14, 'Team culture'],
      [16, 'Delegation'],
      [19, 'Wrap-up'],
    ],
    passMark: 65,
    questions: [
      {
        slide: 3,
        number: 1,
        text: 'What is the main purpose of a one-to-one?',
        choices: [
          'To support and develop the team member',
          'To check timesheets',
          'To hand out new tasks',
          'To deliver the yearly rating',
        ],
        difficulty: 0.85,
        points: 10,
      },
      {
        slide: 5,
        number: 1,
        text: 'Which feedback model describes Situation, Behaviour and Impact?',
        choices: ['SBI', 'GROW', 'SMART', 'RACI'],
        difficulty: 0.6,
        points: 10,
      },
      {
        slide: 7,
        number: 1,
        text: 'In the GROW coaching model, what does the O stand for?',
        choices: ['Options', 'Outcomes', 'Objectives', 'Obstacles'],
        difficulty: 0.42,
        points: 10,
      },
      {
        slide: 9,
        number: 1,
        text: 'A team member keeps missing deadlines. What is the best first step?',
        choices: [
          'A private conversation to understand why',
          'Escalate to HR',
          'Quietly reassign their work',
          'Raise it in the team meeting',
        ],
        difficulty: 0.83,
        points: 10,
      },
      {
        slide: 12,
        number: 1,
        text: 'Which of these is a SMART goal?',
        choices: [
          'Raise NPS from 32 to 40 by the end of Q3',
          'Be better with customers',
          'Work harder',
          'Improve quality',
        ],
        difficulty: 0.74,
        points: 10,
      },
      {
        slide: 15,
        number: 1,
        text: 'What does psychological safety mean in a team?',
        choices: [
          'People can take interpersonal risks without fear',
          'Everyone agrees with each other',
          'There is never any conflict',
          'The manager is never challenged',
        ],
        difficulty: 0.58,
        points: 10,
      },
      {
        slide: 18,
        number: 1,
        text: 'Which delegation level gives the most autonomy?',
        choices: [
          'Act, and tell me only if needed',
          'Look into it and report back',
          'Recommend an action for me to approve',
          'Do exactly as I say',
        ],
        difficulty: 0.36,
        points: 10,
      },
    ],
    variables: [
      finalScore,
      {
        name: 'management_level',
        title: 'Management level',
        description: 'The learner’s role when starting the programme.',
        dataType: 'text',
        recordedAt: 'start',
        produce: ({ learner }) => learner.managementLevel,
      },
      {
        name: 'team_size',
        title: 'Team size',
        description: 'Number of direct reports.',
        dataType: 'number',
        recordedAt: 'start',
        produce: ({ learner }) => learner.teamSize,
      },
      {
        name: 'would_recommend',
        title: 'Would recommend',
        description: 'Would recommend the programme to a fellow manager.',
        dataType: 'boolean',
        recordedAt: 'end',
        produce: ({ random, run }) => random.chance(clamp(0.35 + run.score / 140, 0, 0.97)),
      },
      completionDate,
      feedbackVariable,
    ],
    broadcasts: [],
  },
  {
    title: 'Customer Service Excellence',
    description:
      'Listening, empathy, complaint handling and follow-up that turn unhappy customers into promoters.',
    externalCourseId: 'customer-service-excellence',
    popularity: 0.3,
    slides: 10,
    dropPerSlide: 0.01,
    dropSpikes: {},
    minutesPerSlide: [1, 3],
    slideTitles: [
      'Welcome',
      'Handling complaints',
      'Measuring satisfaction',
      'Listening well',
      'Empathy in practice',
      'First contact resolution',
      'Promises and callbacks',
      'Following up',
      'Difficult customers',
      'Summary',
    ],
    scenes: [
      [1, 'Introduction'],
      [2, 'Complaints and satisfaction'],
      [4, 'Empathy'],
      [6, 'Resolution'],
      [9, 'Difficult situations'],
      [10, 'Wrap-up'],
    ],
    passMark: 70,
    questions: [
      {
        slide: 2,
        number: 1,
        text: 'What is the first step when handling a complaint?',
        choices: ['Listen without interrupting', 'Offer a refund', 'Explain the policy', 'Transfer the call'],
        difficulty: 0.86,
        points: 10,
      },
      {
        slide: 3,
        number: 1,
        text: 'What does NPS measure?',
        choices: [
          'How likely customers are to recommend you',
          'Average handling time',
          'First contact resolution',
          'Revenue per customer',
        ],
        difficulty: 0.72,
        points: 10,
      },
      {
        slide: 5,
        number: 1,
        text: 'Which phrase shows empathy?',
        choices: [
          'I understand how frustrating that must be',
          'That is our policy',
          'You should have read the terms',
          'Please calm down',
        ],
        difficulty: 0.9,
        points: 10,
      },
      {
        slide: 6,
        number: 1,
        text: 'What is first contact resolution?',
        choices: [
          'Solving the issue in the first interaction',
          'Answering within one ring',
          'Replying to the first e-mail of the day',
          'Escalating on first contact',
        ],
        difficulty: 0.64,
        points: 10,
      },
      {
        slide: 8,
        number: 1,
        text: 'When should you follow up after promising a callback?',
        choices: [
          'Within the time you promised',
          'Within a week',
          'Only if the customer calls again',
          'Never',
        ],
        difficulty: 0.81,
        points: 10,
      },
      {
        slide: 9,
        number: 1,
        text: 'A customer becomes abusive. What should you do?',
        choices: [
          'Warn them calmly, and end the call per policy if it continues',
          'Raise your voice',
          'Hang up at once without warning',
          'Put them on hold indefinitely',
        ],
        difficulty: 0.47,
        points: 10,
      },
    ],
    variables: [
      finalScore,
      {
        name: 'region',
        title: 'Region',
        description: 'The region the learner supports.',
        dataType: 'text',
        recordedAt: 'start',
        produce: ({ learner }) => learner.region,
      },
      {
        name: 'nps_score',
        title: 'Likelihood to recommend (0-10)',
        description: 'How likely the learner is to recommend the course.',
        dataType: 'number',
        recordedAt: 'end',
        produce: ({ random, run }) => Math.round(clamp(random.normal(4 + run.score / 20, 1.8), 0, 10)),
      },
      {
        name: 'certified',
        title: 'Certified',
        description: 'Earned the customer service certificate (score at or above 70).',
        dataType: 'boolean',
        recordedAt: 'end',
        produce: ({ run }) => run.passed,
      },
      completionDate,
    ],
    broadcasts: ['Live Q&A with the support leads on Thursday at 15:00.'],
  },
];

export const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Sophia',
  'Elijah',
  'Isabella',
  'James',
  'Mia',
  'Lucas',
  'Charlotte',
  'Mateo',
  'Harper',
  'Benjamin',
  'Evelyn',
  'Leo',
  'Aria',
  'Henry',
  'Priya',
  'Arjun',
  'Ananya',
  'Rohan',
  'Aisha',
  'Omar',
  'Fatima',
  'Yusuf',
  'Leila',
  'Karim',
  'Mei',
  'Wei',
  'Hana',
  'Kenji',
  'Yuna',
  'Minho',
  'Ji-woo',
  'Hiroshi',
  'Sakura',
  'Tuan',
  'Sofía',
  'Diego',
  'Valentina',
  'Santiago',
  'Camila',
  'Javier',
  'Lucía',
  'Carlos',
  'Gabriela',
  'Andrés',
  'Chloé',
  'Louis',
  'Léa',
  'Hugo',
  'Manon',
  'Lukas',
  'Anna',
  'Jonas',
  'Lena',
  'Felix',
  'Giulia',
  'Marco',
  'Chiara',
  'Luca',
  'Sara',
  'Ingrid',
  'Erik',
  'Astrid',
  'Nils',
  'Freya',
  'Zofia',
  'Jakub',
  'Katarzyna',
  'Piotr',
  'Ivana',
  'Dmitri',
  'Olga',
  'Mikhail',
  'Elena',
  'Nikolai',
  'Amara',
  'Kwame',
  'Zainab',
  'Chinedu',
  'Ngozi',
  'Tendai',
  'Thandiwe',
  'Sipho',
  'Abebe',
  'Makena',
  'Grace',
  'Daniel',
  'Chloe',
  'Samuel',
  'Ella',
  'Nathan',
  'Zoe',
  'Ethan',
  'Ruby',
  'Isaac',
  'Maya',
  'Adam',
  'Nora',
  'Ryan',
  'Alice',
  'David',
  'Clara',
  'Thomas',
  'Julia',
  'Michael',
  'Sienna',
  'Aiden',
  'Hannah',
  'Caleb',
  'Layla',
  'Owen',
  'Stella',
  'Jack',
  'Lily',
  'Gabriel',
] as const;

export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernández',
  'López',
  'González',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Pérez',
  'Thompson',
  'White',
  'Harris',
  'Sánchez',
  'Clark',
  'Ramírez',
  'Lewis',
  'Robinson',
  'Patel',
  'Sharma',
  'Singh',
  'Kumar',
  'Gupta',
  'Iyer',
  'Reddy',
  'Nair',
  'Khan',
  'Ahmed',
  'Hassan',
  'Ali',
  'Haddad',
  'Nasser',
  'Rahman',
  'Chen',
  'Wang',
  'Li',
  'Zhang',
  'Liu',
  'Nguyen',
  'Tran',
  'Kim',
  'Park',
  'Choi',
  'Tanaka',
  'Sato',
  'Suzuki',
  'Takahashi',
  'Watanabe',
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Dubois',
  'Moreau',
  'Laurent',
  'Bernard',
  'Lefèvre',
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Johansson',
  'Andersson',
  'Nilsson',
  'Hansen',
  'Larsen',
  'Kowalski',
  'Nowak',
  'Wiśniewska',
  'Novák',
  'Horváth',
  'Ivanova',
  'Petrov',
  'Popescu',
  'Silva',
  'Santos',
  'Oliveira',
  'Costa',
  'Pereira',
  'Okafor',
  'Mensah',
  'Adeyemi',
  'Nkosi',
  'Mwangi',
  'Otieno',
  'Bekele',
  "O'Brien",
  'Murphy',
  'Kelly',
  'Walsh',
  'Byrne',
  'Campbell',
  'Stewart',
  'MacDonald',
  'Evans',
  'Hughes',
  'Cohen',
  'Levi',
  'Friedman',
  'Novak',
  'Jensen',
  'Van Dijk',
  'De Vries',
  'Bakker',
  'Janssen',
  'Visser',
] as const;

/** Companies whose staff the demo organization trains (reserved .example domains). */
export const EMAIL_DOMAINS: readonly (readonly [string, number])[] = [
  ['northwind.example', 30],
  ['contoso.example', 25],
  ['globex.example', 20],
  ['initech.example', 15],
  ['umbrella-health.example', 10],
];

export const MANAGEMENT_LEVELS: readonly (readonly [string, number])[] = [
  ['Team lead', 50],
  ['Manager', 38],
  ['Senior manager', 12],
];
