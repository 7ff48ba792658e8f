import type { CourseTriggerEvent } from '@courselens/contracts';
import { stem } from './text';

// The words the built-in engine knows besides the organization's names, as
// stems (see text.ts). Each set is one meaning; the engine looks for these
// words and the catalog's names, never for whole sentences.

function set(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter(Boolean).map(stem));
}

/** Words that only hold a sentence together: never a name, never "not understood". */
export const FILLER = set(`
  a an the of for in on at to with and or from as is are was were be been being am by into about
  it its this that these those there here then so also just please too
  i we you they he she them us me my our your their his her him its
  who whom whose which what when whenever where while once if whether after before until
  do does did done have has had having will would could should can may might must shall get gets got
  someone somebody anyone anybody everyone everybody one
  learner learners user users employee employees person people student students participant participants
  trainee trainees colleague colleagues staff worker workers
  any all every each some
  course courses training trainings quiz quizzes test tests assessment assessments exam exams module modules
  lesson lessons class classes programme programs program
  time times automatically immediately right away straight
  pipeline pipelines flow workflow automation
  like want need
  , ; . ! ?
`);

/** Nouns that say "a course" after a course's name ("the safety quiz", "the GDPR assessment"). */
export const COURSE_NOUNS = set(
  'course courses training trainings quiz quizzes test tests assessment assessments exam exams module modules lesson lessons class classes programme program',
);

/** Words in course titles that do not tell one course from another. */
export const GENERIC_TITLE_WORDS = set(`
  course courses training trainings essentials essential fundamentals fundamental foundations foundation
  introduction intro basics basic new module programme program excellence refresher data advanced
  part level workshop series certification for the and of to in on a an with your
`);

/** Words in action names that do not tell one action from another ("Alert training team" needs them all). */
export const GENERIC_ACTION_WORDS = set(`
  notify notification alert send post call email mail message webhook hook team training learner learners
  the to a an and of for on in new update updates
`);

/**
 * Words in variable names that are not enough alone to name the variable
 * ("score" alone is not "final score"): a name made only of them needs all of them.
 */
export const GENERIC_NAME_WORDS = set(`
  score scores rate rating level date complete completed completion minutes minute pass passed
  fail failed start started final total count number value values percent yes no
`);

/** Small words allowed inside a name ("leadership foundations for new managers", "data privacy and gdpr"). */
export const JOINERS = set('the of to and for in on a an with');

/** Possessives: "their manager" is a person, not the course for new managers. */
export const POSSESSIVES = set('their his her my your our');

// ---- triggers ---------------------------------------------------------------------

/** Course events as verbs. */
export const EVENT_VERBS: readonly { words: ReadonlySet<string>; event: CourseTriggerEvent }[] = [
  {
    words: set('complete completes completed completing finish finishes finished finishing'),
    event: 'course.completed',
  },
  { words: set('pass passes passed passing'), event: 'course.passed' },
  { words: set('fail fails failed failing'), event: 'course.failed' },
  {
    words: set(
      'start starts started starting begin begins began beginning enrol enrols enroll enrolls enrolled opens opened launch launches launched',
    ),
    event: 'course.started',
  },
  {
    words: set(
      'leave leaves left leaving exit exits exited exiting quit quits abandon abandons abandoned drop drops dropped',
    ),
    event: 'course.exited',
  },
  { words: set('answer answers answered answering respond responds responded'), event: 'question.answered' },
  {
    words: set('view views viewed viewing see sees saw open reach reaches reached visit visits visited'),
    event: 'slide.viewed',
  },
];

export const SLIDE_WORDS = set('slide slides page screen');
export const PROGRESS_WORDS = set('progress progressed through way');
export const REACH_WORDS = set('reach reaches reached get gets hit hits make makes');
export const QUESTION_WORDS = set('question questions answer answers');
export const WRONG_WORDS = set('wrong wrongly incorrect incorrectly badly mistake');
export const RIGHT_WORDS = set('right correct correctly');
/** "the score is recorded": a variable's value arrives. */
export const RECORDED_WORDS = set(
  'recorded record records set saved save submitted submit submits entered given sent reported changes changed updated arrives arrived comes',
);
export const SCORE_WORDS = set('score scores scored scoring grade grades mark marks result results');

/** Trigger cues: they open the clause that says when a run starts. */
export const WHEN_WORDS = set('when whenever once after as soon');
export const IF_WORDS = set('if');
export const OTHERWISE_WORDS = set('otherwise else');
export const NEGATIONS = set('not never no without');

// ---- counts, comparisons, delays ----------------------------------------------------

export const TIMES_WORD = set('times time');
export const TWICE = set('twice');
export const THRICE = set('thrice');

export const LESS_WORDS = set('below under less lower fewer beneath');
export const MORE_WORDS = set('above over more higher greater exceeds exceed beyond');
export const THAN = set('than');
export const AT_WORDS = set('at');
export const LEAST = set('least');
export const MOST = set('most');
export const EQUALS_WORDS = set('equals equal exactly');
export const IS_WORDS = set('is are was be becomes equals');

export const UNIT_WORDS: Readonly<Record<string, 'minutes' | 'hours' | 'days' | 'weeks' | 'months'>> =
  Object.fromEntries(
    (
      [
        ['minute minutes min mins', 'minutes'],
        ['hour hours hr hrs', 'hours'],
        ['day days', 'days'],
        ['week weeks', 'weeks'],
        ['month months', 'months'],
      ] as const
    ).flatMap(([words, unit]) => [...set(words)].map((word) => [word, unit])),
  );

export const WAIT_WORDS = set('wait waits waiting pause delay hold');
export const LATER_WORDS = set('later after afterwards');
export const NEXT_DAY = set('tomorrow');
export const NEXT_WORDS = set('next following');
export const DAY_WORDS = set('day');

// ---- schedules and buttons ------------------------------------------------------------

export const EVERY_WORDS = set('every each');
export const MANUAL_WORDS = set('button manually manual hand demand');
export const PRESS_WORDS = set('press click push tap hit');

// ---- actions ----------------------------------------------------------------------------

export const EMAIL_VERBS = set('email emails emailed mail mails remind reminds');
export const SEND_VERBS = set(
  'send sends post posts forward forwards call calls ping pings push pushes trigger',
);
export const NOTIFY_VERBS = set('notify notifies alert alerts tell tells inform informs warn warns message');
export const SET_VERBS = set('set sets mark marks flag flags');
export const CLEAR_VERBS = set('clear clears remove removes delete deletes reset resets unset');
export const BROADCAST_WORDS = set('broadcast broadcasts banner announcement');
export const WEBHOOK_WORDS = set('webhook webhooks hook hooks endpoint url api');
export const EMAIL_NOUNS = set('email emails mail message');

export const LEARNER_RECIPIENTS = set(
  'them him her learner learners user users student students employee employees person trainee they',
);
export const TEAM_RECIPIENTS = set(
  'team us me admin admins administrator administrators owner owners trainer trainers',
);
/** People CourseLens has no address for: the e-mail goes to the team instead, and the reply says so. */
export const UNKNOWN_PEOPLE = set(
  'manager managers supervisor supervisors boss bosses lead leads hr coach coaches mentor mentors',
);

export const TRUE_WORDS = set('true');
export const FALSE_WORDS = set('false');

// ---- mappings ---------------------------------------------------------------------------

export const COMBINE_WORDS = set(
  'combine combines merge merges map maps unify consolidate gather collect pool',
);
export const ONE_WORDS = set('one single same');
export const VARIABLE_NOUNS = set('variable variables field fields');

/** Clause boundaries for an action's words. */
export const CLAUSE_BREAKS = set('when whenever if otherwise else then after once every each , ; . ! ?');
