import { stem } from './text';

// The words the built-in engine knows besides the organization's names, as
// stems (see text.ts). Each set is one meaning; the engine never looks for a
// whole sentence, only for these words and the catalog's names.

function set(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter(Boolean).map(stem));
}

/** Words that only hold a sentence together: never a name, never "not found". */
export const FILLER = set(`
  a an the of for in on at to with and or from as is are was were be been being am
  me my our your their his her its it this that these those there here
  i we you they he she them us
  what which who whom whose how when where why whether
  do does did done doing have has had having will would could should can may might must shall
  show give see get got want need like make create build generate draw display list tell find know
  told said says gave given shared mentioned captured collected provided talked chatted
  please let lets just also only really very some any all many much more most less least few
  report reports chart charts graph graphs view dashboard data info information overview summary
  number numbers count stat stats statistic statistics metric metrics figure figures result results
  people person learner learners employee employees staff user users student students participant
  participants team teams member members everyone anyone someone individual individuals colleague colleagues
  course courses training trainings programme program module modules class classes quiz quizzes test
  tests lesson lessons
  into about across between among within during over after before since until till than then
  side currently current now so far yet ever but however doing performing going
  active overall total
  again each every other
  up out
`);

/** Words in course titles that do not tell one course from another. */
export const GENERIC_TITLE_WORDS = set(`
  course courses training trainings essentials essential fundamentals fundamental foundations foundation
  introduction intro basics basic new module programme program excellence refresher data advanced
  part level workshop series certification
  for the and of to in on a an with your
`);

/**
 * Words in variable names that are not enough alone to name the variable
 * ("score" alone is not "final score"); a name made only of them needs all
 * of them ("completion date").
 */
export const GENERIC_NAME_WORDS = set(`
  score scores rate rating level date complete completed completion minutes minute pass passed
  fail failed start started final total count number value values percent yes no
`);

/**
 * What people call a custom AI agent. Never enough alone to name one, but
 * beside its name it makes the mention the agent's ("the onboarding agent"
 * is the agent, not the onboarding course).
 */
export const AGENT_NOUNS = set('agent agents chatbot chatbots bot bots assistant assistants');

/** Small words allowed inside a name mention ("likelihood to recommend", "data privacy and gdpr"). */
export const JOINERS = set('the of to and for in on a an with');

// ---- measures -------------------------------------------------------------------

export const AVERAGE = set('average averages mean avg');
export const MEDIAN = set('median');
export const MINIMUM = set('minimum min');
export const MAXIMUM = set('maximum max');
export const SUM = set('sum');
export const POINTS = set('points point');
export const RESPONSES = set('responses response attempts attempt submissions submission');
export const RATE = set('rate rates percent percentage percentages share proportion ratio');
export const COUNT = set('count');
export const VALUES = set('values');
/** "most common", "most frequent": the values that come up most. */
export const COMMON = set('common frequent popular usual');
/** "how many", "number of", "total number of" are read as phrases. */
export const HOW = set('how');
export const MANY = set('many');

/** Course events as verbs; the activity they mean. */
export const COMPLETE_VERBS = set(
  'complete completed completes completing finish finished finishes finishing',
);
export const COMPLETION_NOUNS = set('completion completions');
export const PASS_VERBS = set('pass passed passes passing');
export const FAIL_VERBS = set('fail failed fails failing');
export const START_VERBS = set(
  'start started starts starting begin began begun take took taken enrol enroll enrolled enrolment enrollment attempted',
);

/** Scores of the course runs, when no variable is named. */
export const SCORE_WORDS = set('score scores grade grades mark marks');

/** Answers to questions. */
export const CORRECT = set('correct right accuracy accurate success');
export const WRONG = set(
  'wrong incorrect mistake mistakes miss missed struggle struggled hardest hard difficult difficulty toughest tough tricky trickiest',
);
export const EASY = set('easiest easy simplest simple');
export const DIFFICULTY_SUPERLATIVES = set('hardest easiest toughest trickiest simplest');

// ---- breakdowns -----------------------------------------------------------------

export const BREAKDOWN_CUES = set('by per each every across');
export const BREAKDOWN_NOUNS = set('breakdown distribution split');
export const COURSE_NOUNS = set('course courses training trainings programme program module modules');
export const LEARNER_NOUNS = set(
  'learner learners people person employee employees staff user users student students participant participants individual individuals colleague colleagues performer performers scorer scorers achiever achievers',
);
export const QUESTION_NOUNS = set('question questions');
export const ANSWER_NOUNS = set('answer answers choice choices option options');
export const DAY_WORDS = set('day days daily');
export const WEEK_WORDS = set('week weeks weekly');
export const MONTH_WORDS = set('month months monthly');
export const TREND_WORDS = set('trend trends evolution progress progression timeline');
export const LEADERBOARD_WORDS = set('leaderboard leaderboards ranking rankings rank ranked');

// ---- order, size, chart -----------------------------------------------------------

// Not "first" and "last": "the last 5 learners" are the latest, not the worst.
export const TOP_WORDS = set('top best highest largest biggest');
export const BOTTOM_WORDS = set('bottom worst lowest fewest smallest poorest');
export const DESCENDING = set('highest most best top largest biggest greatest');
export const ASCENDING = set('lowest least worst bottom fewest smallest poorest');
export const COMPARE_WORDS = set('compare compared comparing comparison versus vs against');

export const NEGATIONS = set('not never no without');
export const RELATIVE = set('who that whom which');

/** Words of periods and charts, read by their own rules (known words, so typos are corrected towards them). */
export const PERIOD_AND_CHART_WORDS = set(`
  today yesterday since until till ytd day days week weeks month months quarter quarters year years
  this last past previous prior recent current
  january february march april may june july august september october november december
  pie line bar bars column columns histogram table tabular spreadsheet kpi single
  alphabetical alphabetically side
`);

/** Every word the engine reads, for typo correction and to tell unknown words apart. */
export const KNOWN_WORDS: ReadonlySet<string> = new Set(
  [
    FILLER,
    AVERAGE,
    MEDIAN,
    MINIMUM,
    MAXIMUM,
    SUM,
    POINTS,
    RESPONSES,
    RATE,
    COUNT,
    VALUES,
    COMMON,
    AGENT_NOUNS,
    HOW,
    MANY,
    COMPLETE_VERBS,
    COMPLETION_NOUNS,
    PASS_VERBS,
    FAIL_VERBS,
    START_VERBS,
    SCORE_WORDS,
    CORRECT,
    WRONG,
    EASY,
    BREAKDOWN_CUES,
    BREAKDOWN_NOUNS,
    COURSE_NOUNS,
    LEARNER_NOUNS,
    QUESTION_NOUNS,
    ANSWER_NOUNS,
    DAY_WORDS,
    WEEK_WORDS,
    MONTH_WORDS,
    TREND_WORDS,
    LEADERBOARD_WORDS,
    TOP_WORDS,
    BOTTOM_WORDS,
    DESCENDING,
    ASCENDING,
    COMPARE_WORDS,
    NEGATIONS,
    RELATIVE,
    PERIOD_AND_CHART_WORDS,
  ].flatMap((words) => [...words]),
);
