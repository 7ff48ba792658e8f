import { ONBOARDING_FAQ, SAFETY_HANDBOOK } from './knowledge-cases';
import type { AgentConfig, CapturedValue, ChatVariable } from './types';

// The conversation test set: four agents a training team would build and what
// learners type to them, turn by turn, with the values a person reading the
// chat would write down after each turn. Written before the slot filler and
// never tuned to it: a miss is a parser that does not understand, unless the
// expectation was wrong. Typos, several values in one message, corrections,
// invalid then valid answers and questions in the middle are all here
// because learners do all of them.

/** The day the conversations happen (a Thursday): "tomorrow" is 2026-05-15. */
export const CHAT_CASES_NOW = new Date('2026-05-14T10:00:00Z');

const FEEDBACK_VARIABLES: readonly ChatVariable[] = [
  {
    name: 'rating',
    title: 'Rating',
    type: 'number',
    question: 'On a scale from 0 to 10, how would you rate the course?',
    required: true,
    validation: { min: 0, max: 10 },
  },
  {
    name: 'would_recommend',
    title: 'Would recommend',
    type: 'boolean',
    question: 'Would you recommend the course to a colleague?',
    required: true,
  },
  {
    name: 'favourite_module',
    title: 'Favourite module',
    type: 'choice',
    question:
      'Which module did you find most useful: fire safety, first aid, manual handling or display screens?',
    required: true,
    options: ['Fire safety', 'First aid', 'Manual handling', 'Display screens'],
  },
  {
    name: 'comments',
    title: 'Comments',
    type: 'text',
    question: "Anything else you'd like to tell us?",
    required: false,
    validation: { maxLength: 300 },
  },
];

const REGISTRATION_VARIABLES: readonly ChatVariable[] = [
  {
    name: 'full_name',
    title: 'Full name',
    type: 'text',
    question: "What's your full name?",
    required: true,
    validation: { maxLength: 80 },
  },
  {
    name: 'email',
    title: 'E-mail',
    type: 'text',
    question: 'What e-mail address should we send the confirmation to?',
    required: true,
  },
  {
    name: 'session_date',
    title: 'Session date',
    type: 'date',
    question: 'Which day would you like to attend? Sessions run every weekday in June 2026.',
    required: true,
    validation: { minDate: '2026-06-01', maxDate: '2026-06-30' },
  },
  {
    name: 'meal',
    title: 'Meal',
    type: 'choice',
    question: 'Which lunch would you like: standard, vegetarian, vegan or gluten-free?',
    required: true,
    options: ['Standard', 'Vegetarian', 'Vegan', 'Gluten-free'],
  },
  {
    name: 'needs_parking',
    title: 'Needs parking',
    type: 'boolean',
    question: 'Do you need a parking space?',
    required: true,
  },
];

const ONBOARDING_VARIABLES: readonly ChatVariable[] = [
  {
    name: 'start_date',
    title: 'Start date',
    type: 'date',
    question: 'When is your first day?',
    required: true,
  },
  {
    name: 'department',
    title: 'Department',
    type: 'choice',
    question: 'Which department are you joining?',
    required: true,
    options: ['Sales', 'Marketing', 'Engineering', 'Finance', 'Human Resources', 'Customer Support'],
  },
  {
    name: 'years_experience',
    title: 'Years of experience',
    type: 'number',
    question: 'How many years of work experience do you have?',
    required: true,
    validation: { min: 0, max: 50 },
  },
  {
    name: 'laptop',
    title: 'Laptop',
    type: 'choice',
    question: 'Would you prefer a Windows laptop or a Mac?',
    required: true,
    options: ['Windows', 'Mac'],
  },
];

const CERTIFICATION_VARIABLES: readonly ChatVariable[] = [
  {
    name: 'employee_id',
    title: 'Employee ID',
    type: 'text',
    question: "What's your employee ID (an E followed by five digits)?",
    required: true,
    validation: { pattern: '^E\\d{5}$' },
  },
  {
    name: 'score',
    title: 'Exam score',
    type: 'number',
    question: 'What percentage did you score on the exam?',
    required: true,
    validation: { min: 0, max: 100 },
  },
  {
    name: 'exam_date',
    title: 'Exam date',
    type: 'date',
    question: 'On which day did you take the exam?',
    required: true,
    validation: { maxDate: '2026-05-14' },
  },
  {
    name: 'passed_first_time',
    title: 'Passed first time',
    type: 'boolean',
    question: 'Did you pass on your first attempt?',
    required: true,
  },
];

export const CASE_AGENTS = {
  feedback: { variables: FEEDBACK_VARIABLES, knowledge: [SAFETY_HANDBOOK] },
  registration: { variables: REGISTRATION_VARIABLES, knowledge: [ONBOARDING_FAQ] },
  onboarding: { variables: ONBOARDING_VARIABLES, knowledge: [ONBOARDING_FAQ] },
  certification: { variables: CERTIFICATION_VARIABLES, knowledge: [] },
} as const satisfies Record<string, AgentConfig>;
export type CaseAgent = keyof typeof CASE_AGENTS;

export type ChatTurn = {
  message: string;
  /**
   * Values the conversation must hold after this turn; `null` means "not
   * captured (yet)". Variables not listed are not checked on this turn.
   */
  expect?: Readonly<Record<string, CapturedValue | null>>;
  /** A variable whose value the learner gave but which fails validation, so the agent asks again. */
  rejects?: string;
};

export type ChatCase = { name: string; agent: CaseAgent; turns: readonly ChatTurn[] };

export const CHAT_CASES: readonly ChatCase[] = [
  // ---- course feedback ----
  {
    name: 'short answers, one per question',
    agent: 'feedback',
    turns: [
      { message: '8', expect: { rating: 8 } },
      { message: 'yes', expect: { would_recommend: true } },
      { message: 'first aid', expect: { favourite_module: 'First aid' } },
      { message: 'no', expect: { comments: null } },
    ],
  },
  {
    name: 'numbers in words and a free comment',
    agent: 'feedback',
    turns: [
      { message: "I'd give it a solid eight out of ten", expect: { rating: 8 } },
      { message: 'yeah definitely', expect: { would_recommend: true } },
      { message: 'manual handling by far', expect: { favourite_module: 'Manual handling' } },
      { message: 'The videos were too long', expect: { comments: 'The videos were too long' } },
    ],
  },
  {
    name: 'three answers in the first message',
    agent: 'feedback',
    turns: [
      {
        message: '9/10, would totally recommend it, and fire safety was the most useful part',
        expect: { rating: 9, would_recommend: true, favourite_module: 'Fire safety' },
      },
      { message: 'nothing else, thanks', expect: { comments: null } },
    ],
  },
  {
    name: 'a rating out of range, then a valid one',
    agent: 'feedback',
    turns: [
      { message: 'eleven', rejects: 'rating', expect: { rating: null } },
      { message: 'ok 10 then', expect: { rating: 10 } },
      { message: 'nope', expect: { would_recommend: false } },
      { message: 'display screens', expect: { favourite_module: 'Display screens' } },
    ],
  },
  {
    name: 'a correction of the previous answer, a typo in an option',
    agent: 'feedback',
    turns: [
      { message: '7', expect: { rating: 7 } },
      { message: 'actually make that 6', expect: { rating: 6, would_recommend: null } },
      { message: 'not really', expect: { would_recommend: false } },
      { message: 'Fire safty', expect: { favourite_module: 'Fire safety' } },
      { message: 'skip', expect: { comments: null } },
    ],
  },
  {
    name: 'hedged answers',
    agent: 'feedback',
    turns: [
      { message: 'hmm 6 i guess', expect: { rating: 6 } },
      { message: 'yea', expect: { would_recommend: true } },
      { message: 'the first aid module', expect: { favourite_module: 'First aid' } },
      {
        message: 'Would be nice to have more practical exercises.',
        expect: { comments: 'Would be nice to have more practical exercises.' },
      },
    ],
  },
  {
    name: 'a question about the handbook before answering',
    agent: 'feedback',
    turns: [
      { message: 'where is the assembly point?', expect: { rating: null } },
      { message: '8', expect: { rating: 8 } },
      { message: 'sure', expect: { would_recommend: true } },
      { message: 'Manual Handling', expect: { favourite_module: 'Manual handling' } },
    ],
  },
  {
    name: 'enthusiastic punctuation',
    agent: 'feedback',
    turns: [
      { message: '10!!', expect: { rating: 10 } },
      { message: 'absolutely', expect: { would_recommend: true } },
      { message: 'MANUAL HANDLING', expect: { favourite_module: 'Manual handling' } },
      { message: 'no thanks', expect: { comments: null } },
    ],
  },
  {
    name: 'an answer that is none of the options',
    agent: 'feedback',
    turns: [
      { message: 'zero, it was a waste of time', expect: { rating: 0 } },
      { message: 'no way', expect: { would_recommend: false } },
      { message: 'none of them', rejects: 'favourite_module', expect: { favourite_module: null } },
      { message: 'fine, display screens', expect: { favourite_module: 'Display screens' } },
    ],
  },
  {
    name: 'rating and recommendation together',
    agent: 'feedback',
    turns: [
      { message: "I'd say 7, and yes I'd recommend it", expect: { rating: 7, would_recommend: true } },
      { message: 'first aid', expect: { favourite_module: 'First aid' } },
      {
        message: 'Less theory, more practice please',
        expect: { comments: 'Less theory, more practice please' },
      },
    ],
  },
  // ---- session registration ----
  {
    name: 'one answer per question',
    agent: 'registration',
    turns: [
      { message: 'Anna Schmidt', expect: { full_name: 'Anna Schmidt' } },
      { message: 'anna.schmidt@example.com', expect: { email: 'anna.schmidt@example.com' } },
      { message: 'June 12th', expect: { session_date: '2026-06-12' } },
      { message: 'vegetarian please', expect: { meal: 'Vegetarian' } },
      { message: 'no', expect: { needs_parking: false } },
    ],
  },
  {
    name: 'introduction with name, e-mail and date',
    agent: 'registration',
    turns: [
      {
        message: "Hi, I'm Tom Baker, tom.baker@acme.co.uk, I'd like to come on the 3rd of June",
        expect: { full_name: 'Tom Baker', email: 'tom.baker@acme.co.uk', session_date: '2026-06-03' },
      },
      { message: 'vegan', expect: { meal: 'Vegan' } },
      { message: 'yes please', expect: { needs_parking: true } },
    ],
  },
  {
    name: 'a date outside June, then a valid one',
    agent: 'registration',
    turns: [
      { message: 'Lena Fischer', expect: { full_name: 'Lena Fischer' } },
      { message: 'lena@fischer.de', expect: { email: 'lena@fischer.de' } },
      { message: 'tomorrow', rejects: 'session_date', expect: { session_date: null } },
      { message: 'June 20 then', expect: { session_date: '2026-06-20' } },
      { message: 'gluten free', expect: { meal: 'Gluten-free' } },
      { message: "nope, I'll take the train", expect: { needs_parking: false } },
    ],
  },
  {
    name: 'an e-mail address that is not one, then a real one',
    agent: 'registration',
    turns: [
      { message: 'Marco Rossi', expect: { full_name: 'Marco Rossi' } },
      { message: 'marco.rossi at gmail', rejects: 'email', expect: { email: null } },
      { message: 'sorry, marco.rossi@gmail.com', expect: { email: 'marco.rossi@gmail.com' } },
      { message: 'the 15th of june', expect: { session_date: '2026-06-15' } },
      { message: 'standard is fine', expect: { meal: 'Standard' } },
      { message: 'yes', expect: { needs_parking: true } },
    ],
  },
  {
    name: 'sentences instead of bare answers',
    agent: 'registration',
    turns: [
      {
        message: 'My name is Priya Natarajan and my email is priya.n@example.org',
        expect: { full_name: 'Priya Natarajan', email: 'priya.n@example.org' },
      },
      { message: 'Friday 5 June', expect: { session_date: '2026-06-05' } },
      { message: "I'm vegetarian", expect: { meal: 'Vegetarian' } },
      { message: "I'll need a parking spot", expect: { needs_parking: true } },
    ],
  },
  {
    name: 'correcting the name later',
    agent: 'registration',
    turns: [
      { message: 'jan de vries', expect: { full_name: 'jan de vries' } },
      {
        message: 'jan.devries@example.nl',
        expect: { email: 'jan.devries@example.nl' },
      },
      {
        message: 'actually my name is Jan de Vries-Bakker',
        expect: { full_name: 'Jan de Vries-Bakker', session_date: null },
      },
      { message: 'June 30', expect: { session_date: '2026-06-30' } },
      { message: 'standard', expect: { meal: 'Standard' } },
      { message: 'no', expect: { needs_parking: false } },
    ],
  },
  {
    name: 'picking an option by its position',
    agent: 'registration',
    turns: [
      { message: 'Sofia Alvarez', expect: { full_name: 'Sofia Alvarez' } },
      { message: 'sofia@alvarez.es', expect: { email: 'sofia@alvarez.es' } },
      { message: '2026-06-18', expect: { session_date: '2026-06-18' } },
      { message: 'the second one', expect: { meal: 'Vegetarian' } },
      { message: 'no thanks', expect: { needs_parking: false } },
    ],
  },
  {
    name: 'a date written out in words',
    agent: 'registration',
    turns: [
      { message: 'Kim Lee', expect: { full_name: 'Kim Lee' } },
      { message: 'kim.lee@example.com', expect: { email: 'kim.lee@example.com' } },
      { message: 'the twenty-second of June', expect: { session_date: '2026-06-22' } },
      { message: 'Gluten-free', expect: { meal: 'Gluten-free' } },
      { message: 'yep', expect: { needs_parking: true } },
    ],
  },
  {
    name: 'an e-mail address in capitals with a full stop',
    agent: 'registration',
    turns: [
      { message: 'Olu Adeyemi', expect: { full_name: 'Olu Adeyemi' } },
      { message: "It's OLU.ADEYEMI@Example.com.", expect: { email: 'olu.adeyemi@example.com' } },
      { message: 'on June 9', expect: { session_date: '2026-06-09' } },
      { message: 'vegan please', expect: { meal: 'Vegan' } },
      { message: 'nah', expect: { needs_parking: false } },
    ],
  },
  {
    name: 'everything in one message',
    agent: 'registration',
    turns: [
      {
        message: 'Register me please: Ravi Kumar, ravi.kumar@example.com, 9 June, vegan, no parking needed',
        expect: {
          full_name: 'Ravi Kumar',
          email: 'ravi.kumar@example.com',
          session_date: '2026-06-09',
          meal: 'Vegan',
          needs_parking: false,
        },
      },
    ],
  },
  {
    name: 'a question about parking in the middle',
    agent: 'registration',
    turns: [
      { message: 'Tom Hardy', expect: { full_name: 'Tom Hardy' } },
      { message: "what's the parking situation at the office?", expect: { email: null } },
      { message: 'tom@hardy.com', expect: { email: 'tom@hardy.com' } },
      { message: 'June 2', expect: { session_date: '2026-06-02' } },
      { message: 'standard', expect: { meal: 'Standard' } },
      { message: 'yes', expect: { needs_parking: true } },
    ],
  },
  // ---- onboarding check-in ----
  {
    name: 'short answers',
    agent: 'onboarding',
    turns: [
      { message: '1 June', expect: { start_date: '2026-06-01' } },
      { message: 'engineering', expect: { department: 'Engineering' } },
      { message: 'about 7 years', expect: { years_experience: 7 } },
      { message: 'mac', expect: { laptop: 'Mac' } },
    ],
  },
  {
    name: 'date and department in one sentence',
    agent: 'onboarding',
    turns: [
      {
        message: 'I start on Monday the 1st of June in the marketing team',
        expect: { start_date: '2026-06-01', department: 'Marketing' },
      },
      { message: 'twelve', expect: { years_experience: 12 } },
      { message: 'windows please', expect: { laptop: 'Windows' } },
    ],
  },
  {
    name: 'an abbreviation and a decimal in words',
    agent: 'onboarding',
    turns: [
      { message: 'June 15', expect: { start_date: '2026-06-15' } },
      { message: 'HR', expect: { department: 'Human Resources' } },
      { message: 'ten years', expect: { years_experience: 10 } },
      { message: 'a Mac', expect: { laptop: 'Mac' } },
    ],
  },
  {
    name: 'a numeric date and a compound number word',
    agent: 'onboarding',
    turns: [
      { message: '15/06/2026', expect: { start_date: '2026-06-15' } },
      { message: 'customer support', expect: { department: 'Customer Support' } },
      { message: "I've been working for twenty-two years", expect: { years_experience: 22 } },
      { message: "I don't mind, windows", expect: { laptop: 'Windows' } },
    ],
  },
  {
    name: 'too many years, then a valid number',
    agent: 'onboarding',
    turns: [
      { message: 'tomorrow', expect: { start_date: '2026-05-15' } },
      { message: 'finance', expect: { department: 'Finance' } },
      { message: 'sixty', rejects: 'years_experience', expect: { years_experience: null } },
      { message: 'ok, 45', expect: { years_experience: 45 } },
      { message: 'mac', expect: { laptop: 'Mac' } },
    ],
  },
  {
    name: 'a misspelt department and no experience',
    agent: 'onboarding',
    turns: [
      { message: 'June 8', expect: { start_date: '2026-06-08' } },
      { message: 'Sals', expect: { department: 'Sales' } },
      { message: 'none, this is my first job', expect: { years_experience: 0 } },
      { message: 'Mac', expect: { laptop: 'Mac' } },
    ],
  },
  {
    name: 'correcting the department',
    agent: 'onboarding',
    turns: [
      { message: 'June 1', expect: { start_date: '2026-06-01' } },
      { message: 'engineering', expect: { department: 'Engineering' } },
      { message: '5', expect: { years_experience: 5 } },
      {
        message: 'wait, sorry, I meant finance, not engineering',
        expect: { department: 'Finance', laptop: null },
      },
      { message: 'windows', expect: { laptop: 'Windows' } },
    ],
  },
  {
    name: 'a decimal number of years',
    agent: 'onboarding',
    turns: [
      { message: '1st June', expect: { start_date: '2026-06-01' } },
      { message: 'finance', expect: { department: 'Finance' } },
      { message: '2.5', expect: { years_experience: 2.5 } },
      { message: 'Windows', expect: { laptop: 'Windows' } },
    ],
  },
  // ---- certification record ----
  {
    name: 'short answers with a relative date',
    agent: 'certification',
    turns: [
      { message: 'E12345', expect: { employee_id: 'E12345' } },
      { message: '87%', expect: { score: 87 } },
      { message: 'last Friday', expect: { exam_date: '2026-05-08' } },
      { message: 'yes', expect: { passed_first_time: true } },
    ],
  },
  {
    name: 'sentences, a lower-case id and a percentage in words',
    agent: 'certification',
    turns: [
      { message: 'my id is e54321', expect: { employee_id: 'e54321' } },
      { message: 'ninety-two percent', expect: { score: 92 } },
      { message: 'on the 2nd of May', expect: { exam_date: '2026-05-02' } },
      { message: 'no, second attempt', expect: { passed_first_time: false } },
    ],
  },
  {
    name: 'an id without its letter and a score over 100',
    agent: 'certification',
    turns: [
      { message: '12345', rejects: 'employee_id', expect: { employee_id: null } },
      { message: 'E12345', expect: { employee_id: 'E12345' } },
      { message: 'I got 105', rejects: 'score', expect: { score: null } },
      { message: '95', expect: { score: 95 } },
      { message: 'May 3rd', expect: { exam_date: '2026-05-03' } },
      { message: 'yep', expect: { passed_first_time: true } },
    ],
  },
  {
    name: 'an exam date in the future, then a past one',
    agent: 'certification',
    turns: [
      { message: 'E00042', expect: { employee_id: 'E00042' } },
      { message: '78', expect: { score: 78 } },
      { message: 'next week', rejects: 'exam_date', expect: { exam_date: null } },
      { message: 'May 11', expect: { exam_date: '2026-05-11' } },
      { message: 'I did', expect: { passed_first_time: true } },
    ],
  },
  {
    name: 'everything in one sentence',
    agent: 'certification',
    turns: [
      {
        message: 'E77777, I scored 64% on the 12th of May and passed first time',
        expect: { employee_id: 'E77777', score: 64, exam_date: '2026-05-12', passed_first_time: true },
      },
    ],
  },
  {
    name: 'a hundred in words and yesterday',
    agent: 'certification',
    turns: [
      { message: 'E11111', expect: { employee_id: 'E11111' } },
      { message: 'one hundred', expect: { score: 100 } },
      { message: 'yesterday', expect: { exam_date: '2026-05-13' } },
      { message: 'no', expect: { passed_first_time: false } },
    ],
  },
];
