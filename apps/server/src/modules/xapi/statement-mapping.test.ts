import { describe, expect, it } from 'vitest';
import {
  mapStatement,
  type KnownCourses,
  type XapiActivityLike,
  type XapiStatementLike,
} from './statement-mapping';

const verb = (name: string) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { 'en-US': name } });

const COURSE_TYPE = 'http://adlnet.gov/expapi/activities/course';
const MODULE_TYPE = 'http://adlnet.gov/expapi/activities/module';
const INTERACTION_TYPE = 'http://adlnet.gov/expapi/activities/cmi.interaction';
const OBJECTIVE_TYPE = 'http://adlnet.gov/expapi/activities/objective';
const MASTERY_SCORE = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
const PROGRESS = 'https://w3id.org/xapi/cmi5/result/extensions/progress';

const nothingKnown: KnownCourses = { courses: new Set(), registrations: new Map() };

// --- Articulate Storyline 360, published for xAPI (Tin Can) and launched by an LMS ---

const STORYLINE_COURSE = 'urn:articulate:storyline:6cuTEluHuA5';
const STORYLINE_QUIZ = `${STORYLINE_COURSE}/5x3rYq9dZ1a`;
const REGISTRATION = 'E5A3F4C2-8B0D-4C8E-9D1A-2F6B7C8D9E0F';

const storylineActor = { objectType: 'Agent', name: ' Jane Doe ', mbox: 'mailto:Jane.Doe@Example.com' };
const storylineCourse: XapiActivityLike = {
  objectType: 'Activity',
  id: STORYLINE_COURSE,
  definition: { type: COURSE_TYPE, name: { und: 'Workplace Safety Basics' } },
};
// Storyline names its context activities by id only: the course is recognised as one the organization has.
const storylineContext = {
  registration: REGISTRATION,
  contextActivities: {
    parent: [{ objectType: 'Activity', id: STORYLINE_QUIZ }],
    grouping: [{ objectType: 'Activity', id: STORYLINE_COURSE }],
  },
};
const storylineKnown: KnownCourses = { courses: new Set([STORYLINE_COURSE]), registrations: new Map() };

function storylineAnswer(
  interaction: string,
  definition: NonNullable<XapiActivityLike['definition']>,
  result: XapiStatementLike['result'],
): XapiStatementLike {
  return {
    actor: storylineActor,
    verb: verb('answered'),
    object: {
      objectType: 'Activity',
      id: `${STORYLINE_QUIZ}/${interaction}`,
      definition: { type: INTERACTION_TYPE, ...definition },
    },
    result,
    context: storylineContext,
    timestamp: '2026-03-02T09:15:00.000Z',
  };
}

function questionOf(statement: XapiStatementLike, known = storylineKnown) {
  const mapping = mapStatement(statement, known);
  if (!mapping.mapped) throw new Error(`not mapped: ${mapping.reason}`);
  const [fact] = mapping.facts;
  if (fact?.type !== 'question.answered') throw new Error(`not a question: ${fact?.type}`);
  return fact.question;
}

describe('mapStatement: Articulate Storyline 360', () => {
  it('starts the course on attempted, with the course, the learner and the registration', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('attempted'),
        object: storylineCourse,
        result: { completion: false, duration: 'PT0.05S' } as XapiStatementLike['result'],
        context: {
          registration: REGISTRATION,
          contextActivities: {
            parent: [{ objectType: 'Activity', id: STORYLINE_COURSE }],
            grouping: [{ objectType: 'Activity', id: STORYLINE_COURSE }],
          },
        },
        timestamp: '2026-03-02T09:00:00.000Z',
      },
      nothingKnown,
    );
    expect(mapping).toEqual({
      mapped: true,
      course: { activityId: STORYLINE_COURSE, title: 'Workplace Safety Basics' },
      learner: { email: 'jane.doe@example.com', name: 'Jane Doe' },
      registration: 'e5a3f4c2-8b0d-4c8e-9d1a-2f6b7c8d9e0f',
      facts: [{ type: 'course.started' }],
    });
  });

  it('records a slide view on experienced, with no scene when the parent is the course', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('experienced'),
        object: {
          objectType: 'Activity',
          id: `${STORYLINE_COURSE}/6Bme7xdvsBz`,
          definition: { type: MODULE_TYPE, name: { und: 'Welcome' } },
        },
        context: {
          registration: REGISTRATION,
          contextActivities: {
            parent: [{ objectType: 'Activity', id: STORYLINE_COURSE }],
            grouping: [{ objectType: 'Activity', id: STORYLINE_COURSE }],
          },
        },
      },
      storylineKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      course: { activityId: STORYLINE_COURSE, title: null },
      facts: [
        {
          type: 'slide.viewed',
          slide: { activityId: `${STORYLINE_COURSE}/6Bme7xdvsBz`, title: 'Welcome', scene: null },
        },
      ],
    });
  });

  it('names the scene after the first parent when that parent is not the course', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('experienced'),
        object: {
          id: `${STORYLINE_COURSE}/6Bme7xdvsBz`,
          definition: { type: MODULE_TYPE, name: { 'en-US': 'Hazard symbols' } },
        },
        context: {
          contextActivities: {
            parent: [
              { id: `${STORYLINE_COURSE}/5tGhK2`, definition: { name: { 'en-US': 'Scene 2: Chemicals' } } },
            ],
            grouping: [
              { id: STORYLINE_COURSE, definition: { type: COURSE_TYPE, name: { 'en-US': 'Safety' } } },
            ],
          },
        },
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      course: { activityId: STORYLINE_COURSE, title: 'Safety' },
      registration: null,
      facts: [{ type: 'slide.viewed', slide: { title: 'Hazard symbols', scene: 'Scene 2: Chemicals' } }],
    });
  });

  it('maps a choice question answered, with descriptions, success and points', () => {
    const question = questionOf(
      storylineAnswer(
        '6Q8vvQ8DbbS',
        {
          name: { und: 'PPE' },
          description: { und: 'Which of these are personal protective equipment?' },
          interactionType: 'choice',
          correctResponsesPattern: ['choice_6RKaB3VpKoR[,]choice_5kyKtxCrq7L'],
          choices: [
            { id: 'choice_6RKaB3VpKoR', description: { und: 'Hard hat' } },
            { id: 'choice_5kyKtxCrq7L', description: { und: 'Safety goggles' } },
            { id: 'choice_6p1WZ3x8Qm2', description: { und: 'Coffee mug' } },
          ],
        },
        { score: { raw: 10 }, success: true, response: 'choice_5kyKtxCrq7L[,]choice_6RKaB3VpKoR' },
      ),
    );
    expect(question).toEqual({
      interactionId: `${STORYLINE_QUIZ}/6Q8vvQ8DbbS`,
      text: 'Which of these are personal protective equipment?',
      answer: 'Safety goggles, Hard hat',
      correct: true,
      correctAnswer: 'Hard hat, Safety goggles',
      points: 10,
    });
  });

  it('judges the response against the pattern when the statement has no success', () => {
    const question = questionOf(
      storylineAnswer(
        '5RtY',
        {
          description: { 'en-US': 'Which extinguisher for an electrical fire?' },
          interactionType: 'choice',
          correctResponsesPattern: ['choice_co2'],
          choices: [
            { id: 'choice_co2', description: { 'en-US': 'CO2' } },
            { id: 'choice_water', description: { 'en-US': 'Water' } },
          ],
        },
        { response: 'choice_water' },
      ),
    );
    expect(question).toMatchObject({ answer: 'Water', correct: false, correctAnswer: 'CO2', points: null });
  });

  it('lets result.success win over the pattern (the tool may grade otherwise)', () => {
    const question = questionOf(
      storylineAnswer(
        '5RtY',
        { interactionType: 'choice', correctResponsesPattern: ['choice_co2'] },
        { response: 'choice_water', success: true },
      ),
    );
    expect(question.correct).toBe(true);
  });

  it('maps a matching (drag and drop) question', () => {
    const question = questionOf(
      storylineAnswer(
        '6aB',
        {
          description: { 'en-US': 'Match each sign to its meaning' },
          interactionType: 'matching',
          correctResponsesPattern: ['sign_red[.]meaning_stop[,]sign_blue[.]meaning_must'],
          source: [
            { id: 'sign_red', description: { 'en-US': 'Red circle' } },
            { id: 'sign_blue', description: { 'en-US': 'Blue circle' } },
          ],
          target: [
            { id: 'meaning_stop', description: { 'en-US': 'Prohibition' } },
            { id: 'meaning_must', description: { 'en-US': 'Mandatory action' } },
          ],
        },
        { response: 'sign_blue[.]meaning_must[,]sign_red[.]meaning_stop' },
      ),
    );
    expect(question).toMatchObject({
      answer: 'Blue circle → Mandatory action, Red circle → Prohibition',
      correct: true,
      correctAnswer: 'Red circle → Prohibition, Blue circle → Mandatory action',
    });
  });

  it('maps a sequencing question, order mattering', () => {
    const definition = {
      description: { 'en-US': 'Put the evacuation steps in order' },
      interactionType: 'sequencing',
      correctResponsesPattern: ['alarm[,]exit[,]assemble'],
      choices: [
        { id: 'alarm', description: { 'en-US': 'Raise the alarm' } },
        { id: 'exit', description: { 'en-US': 'Leave by the nearest exit' } },
        { id: 'assemble', description: { 'en-US': 'Go to the assembly point' } },
      ],
    };
    const question = questionOf(storylineAnswer('6sQ', definition, { response: 'exit[,]alarm[,]assemble' }));
    expect(question).toMatchObject({
      answer: 'Leave by the nearest exit → Raise the alarm → Go to the assembly point',
      correct: false,
      correctAnswer: 'Raise the alarm → Leave by the nearest exit → Go to the assembly point',
    });
  });

  it('maps a fill-in question, judged without case', () => {
    const question = questionOf(
      storylineAnswer(
        '6fI',
        {
          description: { 'en-US': 'Who do you call first?' },
          interactionType: 'fill-in',
          correctResponsesPattern: ['{case_matters=false}Fire warden', '{case_matters=false}warden'],
        },
        { response: 'fire warden ' },
      ),
    );
    expect(question).toMatchObject({ answer: 'fire warden', correct: true, correctAnswer: 'Fire warden' });
  });

  it('maps a likert survey question, which has no correct answer', () => {
    const question = questionOf(
      storylineAnswer(
        '6lK',
        {
          description: { 'en-US': 'I feel confident using an extinguisher' },
          interactionType: 'likert',
          scale: [
            { id: 'likert_1', description: { 'en-US': 'Disagree' } },
            { id: 'likert_2', description: { 'en-US': 'Neutral' } },
            { id: 'likert_3', description: { 'en-US': 'Agree' } },
          ],
        },
        { response: 'likert_3' },
      ),
    );
    expect(question).toMatchObject({ answer: 'Agree', correct: null, correctAnswer: null, points: null });
  });

  it('maps a numeric question with a range as the correct answer', () => {
    const question = questionOf(
      storylineAnswer(
        '6nU',
        {
          description: { 'en-US': 'How many metres from the fire should you stand?' },
          interactionType: 'numeric',
          correctResponsesPattern: ['3[:]5'],
        },
        { response: '4', score: { raw: 5 } },
      ),
    );
    expect(question).toMatchObject({ answer: '4', correct: true, correctAnswer: '3 to 5', points: 5 });
  });

  it('maps a true-false question', () => {
    const question = questionOf(
      storylineAnswer(
        '6tF',
        {
          description: { 'en-US': 'Water is safe on an electrical fire.' },
          interactionType: 'true-false',
          correctResponsesPattern: ['false'],
        },
        { response: 'true', success: false, score: { raw: 0 } },
      ),
    );
    expect(question).toMatchObject({ answer: 'true', correct: false, correctAnswer: 'false', points: 0 });
  });

  it('keeps a question answered without a response', () => {
    const question = questionOf(
      storylineAnswer(
        '6nR',
        { name: { 'en-US': 'Open question' }, interactionType: 'long-fill-in' },
        undefined,
      ),
    );
    expect(question).toMatchObject({
      text: 'Open question',
      answer: null,
      correct: null,
      correctAnswer: null,
    });
  });

  it('completes the course on completed', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('completed'),
        object: storylineCourse,
        result: { completion: true },
        context: storylineContext,
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({ mapped: true, facts: [{ type: 'course.completed' }] });
  });

  it('passes the course with the scaled score and the cmi5 mastery score as percentages', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('passed'),
        object: storylineCourse,
        result: { score: { scaled: 0.57, raw: 57 }, success: true, completion: true },
        context: { ...storylineContext, extensions: { [MASTERY_SCORE]: 0.55 } },
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      facts: [{ type: 'course.passed', result: { score: 57, passMark: 55 } }, { type: 'course.completed' }],
    });
  });

  it('fails the course with the raw score when there is no scaled one, and no pass mark', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('failed'),
        object: storylineCourse,
        result: { score: { raw: 12 }, success: false },
        context: storylineContext,
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      facts: [{ type: 'course.failed', result: { score: 12, passMark: null } }],
    });
  });

  it('passes with neither score nor pass mark', () => {
    const mapping = mapStatement(
      { actor: storylineActor, verb: verb('passed'), object: storylineCourse },
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      facts: [{ type: 'course.passed', result: { score: null, passMark: null } }],
    });
  });

  it('exits the course on suspended, and completes it instead when the result says completed', () => {
    const suspended = (completion?: boolean): XapiStatementLike => ({
      actor: storylineActor,
      verb: verb('suspended'),
      object: storylineCourse,
      result: completion === undefined ? undefined : { completion },
    });
    expect(mapStatement(suspended(), nothingKnown)).toMatchObject({ facts: [{ type: 'course.exited' }] });
    expect(mapStatement(suspended(false), nothingKnown)).toMatchObject({
      facts: [{ type: 'course.exited' }],
    });
    expect(mapStatement(suspended(true), nothingKnown)).toMatchObject({
      facts: [{ type: 'course.completed' }],
    });
  });

  it('does not pass the course when a quiz objective is passed', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('passed'),
        object: { id: STORYLINE_QUIZ, definition: { type: OBJECTIVE_TYPE, name: { und: 'Final quiz' } } },
        result: { score: { scaled: 0.9 }, success: true },
        context: {
          contextActivities: { parent: [{ id: STORYLINE_COURSE }], grouping: [{ id: STORYLINE_COURSE }] },
        },
      },
      storylineKnown,
    );
    expect(mapping).toEqual({
      mapped: false,
      reason: `no fact for verb http://adlnet.gov/expapi/verbs/passed on ${STORYLINE_QUIZ}, which is not the course ${STORYLINE_COURSE}`,
    });
  });

  it('turns variables sent in result extensions into variable.set facts, after the verb’s facts', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: verb('experienced'),
        object: { id: `${STORYLINE_COURSE}/6Bme7xdvsBz`, definition: { name: { 'en-US': 'Results' } } },
        result: {
          extensions: {
            'https://example.com/xapi/variables/Score': 42,
            'https://example.com/xapi/variable/LearnerRole': 'manager',
            'https://example.com/xapi/variables/%20First%20Name%20': 'Jane',
            'https://example.com/xapi/variables/Consent': true,
            'https://example.com/xapi/variables/Team': null,
            'https://example.com/xapi/variables/Answers': { q1: 'a' },
            'https://example.com/xapi/variables/Picks': ['a', 'b'],
            'https://example.com/xapi/variables/Essay': 'x'.repeat(10_001),
            'https://example.com/xapi/variables/': 'no name',
            'https://example.com/xapi/variables/Caf%C3%A9?lang=fr': 'yes',
            'https://example.com/xapi/settings/Volume': 3,
            [`https://example.com/xapi/variables/${'n'.repeat(256)}`]: 1,
          },
        },
        context: storylineContext,
      },
      storylineKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      facts: [
        { type: 'slide.viewed' },
        { type: 'variable.set', variable: { name: 'Score', value: 42 } },
        { type: 'variable.set', variable: { name: 'LearnerRole', value: 'manager' } },
        { type: 'variable.set', variable: { name: 'First Name', value: 'Jane' } },
        { type: 'variable.set', variable: { name: 'Consent', value: true } },
        { type: 'variable.set', variable: { name: 'Team', value: null } },
        { type: 'variable.set', variable: { name: 'Café', value: 'yes' } },
      ],
    });
    if (mapping.mapped) expect(mapping.facts).toHaveLength(7);
  });

  it('maps a custom statement carrying only variables (a verb with no fact of its own)', () => {
    const mapping = mapStatement(
      {
        actor: storylineActor,
        verb: { id: 'http://adlnet.gov/expapi/verbs/interacted' },
        object: { id: `${STORYLINE_COURSE}/6Bme7xdvsBz/slider` },
        result: { extensions: { 'https://courselens.example/xapi/variables/Confidence': 7 } },
        context: storylineContext,
      },
      storylineKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      facts: [{ type: 'variable.set', variable: { name: 'Confidence', value: 7 } }],
    });
  });
});

// --- Articulate Rise 360 ---

const RISE_COURSE = 'http://8NOIDUGzX72zEk_KuLYJI2RB9oMyGsCz_rise';
const riseCourse: XapiActivityLike = {
  objectType: 'Activity',
  id: RISE_COURSE,
  definition: {
    type: COURSE_TYPE,
    name: { 'en-US': 'Onboarding' },
    description: { 'en-US': 'Welcome aboard' },
  },
};
const riseActor = { objectType: 'Agent', name: 'Sam Lee', mbox: 'mailto:sam.lee@example.org' };
const riseContext = {
  registration: 'a1b2c3d4-0000-4000-8000-000000000001',
  contextActivities: { parent: [riseCourse], grouping: [riseCourse] },
};

describe('mapStatement: Articulate Rise 360', () => {
  it('starts the course on attempted', () => {
    const mapping = mapStatement(
      {
        actor: riseActor,
        verb: verb('attempted'),
        object: riseCourse,
        context: { registration: riseContext.registration },
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      course: { activityId: RISE_COURSE, title: 'Onboarding' },
      registration: riseContext.registration,
      facts: [{ type: 'course.started' }],
    });
  });

  it('maps nothing for a lesson completed under the course grouping', () => {
    const mapping = mapStatement(
      {
        actor: riseActor,
        verb: verb('completed'),
        object: {
          id: `${RISE_COURSE}/kT3rQ1`,
          definition: { type: MODULE_TYPE, name: { 'en-US': 'Lesson 1: Your first day' } },
        },
        result: { completion: true },
        context: riseContext,
      },
      nothingKnown,
    );
    expect(mapping).toEqual({
      mapped: false,
      reason: `no fact for verb http://adlnet.gov/expapi/verbs/completed on ${RISE_COURSE}/kT3rQ1, which is not the course ${RISE_COURSE}`,
    });
  });

  it('records a lesson experienced as a slide view; the course as parent is no scene', () => {
    const mapping = mapStatement(
      {
        actor: riseActor,
        verb: verb('experienced'),
        object: {
          id: `${RISE_COURSE}/kT3rQ1`,
          definition: { type: MODULE_TYPE, name: { 'en-US': 'Lesson 1' } },
        },
        context: riseContext,
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      course: { activityId: RISE_COURSE, title: 'Onboarding' },
      facts: [
        {
          type: 'slide.viewed',
          slide: { activityId: `${RISE_COURSE}/kT3rQ1`, title: 'Lesson 1', scene: null },
        },
      ],
    });
  });

  it('records course progress from the cmi5 progress extension', () => {
    const mapping = mapStatement(
      {
        actor: riseActor,
        verb: verb('progressed'),
        object: riseCourse,
        result: { completion: false, extensions: { [PROGRESS]: 50 } },
        context: riseContext,
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({ facts: [{ type: 'course.progressed', progress: { percent: 50 } }] });
  });

  it('falls back to the scaled score for progress, and maps nothing without either', () => {
    const progressed = (result: XapiStatementLike['result']): XapiStatementLike => ({
      actor: riseActor,
      verb: verb('progressed'),
      object: riseCourse,
      result,
    });
    expect(mapStatement(progressed({ score: { scaled: 0.33 } }), nothingKnown)).toMatchObject({
      facts: [{ type: 'course.progressed', progress: { percent: 33 } }],
    });
    expect(
      mapStatement(progressed({ extensions: { [PROGRESS]: 150 }, score: { scaled: 0.4 } }), nothingKnown),
    ).toMatchObject({
      facts: [{ type: 'course.progressed', progress: { percent: 40 } }],
    });
    expect(mapStatement(progressed({ extensions: { [PROGRESS]: '50' } }), nothingKnown)).toEqual({
      mapped: false,
      reason:
        'no fact for verb http://adlnet.gov/expapi/verbs/progressed without a progress extension from 0 to 100 or a scaled score from 0 to 1',
    });
  });

  it('maps a knowledge-check answer inside a lesson', () => {
    const mapping = mapStatement(
      {
        actor: riseActor,
        verb: verb('answered'),
        object: {
          id: `${RISE_COURSE}/kT3rQ1/q1`,
          definition: {
            type: INTERACTION_TYPE,
            name: { 'en-US': 'Badge question' },
            description: { 'en-US': 'Where do you collect your badge?' },
            interactionType: 'choice',
            correctResponsesPattern: ['c1'],
            choices: [
              { id: 'c1', description: { 'en-US': 'Reception' } },
              { id: 'c2', description: { 'en-US': 'IT desk' } },
            ],
          },
        },
        result: { response: 'c1', success: true },
        context: {
          ...riseContext,
          contextActivities: { parent: [{ id: `${RISE_COURSE}/kT3rQ1` }], grouping: [riseCourse] },
        },
      },
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      course: { activityId: RISE_COURSE },
      facts: [
        {
          type: 'question.answered',
          question: {
            text: 'Where do you collect your badge?',
            answer: 'Reception',
            correct: true,
            correctAnswer: 'Reception',
          },
        },
      ],
    });
  });
});

// --- Adobe Captivate, iSpring and cmi5 players: account actors and course-level verbs ---

describe('mapStatement: learners', () => {
  const launched = (actor: XapiStatementLike['actor']): XapiStatementLike => ({
    actor,
    verb: verb('launched'),
    object: { id: 'https://captivate.example.com/courses/forklift', definition: { type: COURSE_TYPE } },
  });

  it('makes an e-mail address from a Captivate-like account: name@host of the home page', () => {
    const mapping = mapStatement(
      launched({
        objectType: 'Agent',
        name: 'Jean Dupont',
        account: { homePage: 'https://LMS.Example.org:8443/portal/', name: 'Jean Dupont (ID 4711)' },
      }),
      nothingKnown,
    );
    expect(mapping).toMatchObject({
      mapped: true,
      learner: { email: 'jean-dupont-id-4711@lms.example.org', name: 'Jean Dupont' },
      facts: [{ type: 'course.started' }],
    });
  });

  it('uses an account name that is itself an e-mail address', () => {
    const mapping = mapStatement(
      launched({ account: { homePage: 'https://lms.example.org', name: 'Jean.Dupont@Example.fr' } }),
      nothingKnown,
    );
    expect(mapping).toMatchObject({ learner: { email: 'jean.dupont@example.fr', name: null } });
  });

  it('cleans an account name into a local part: runs collapsed, ends trimmed, 64 characters at most', () => {
    const email = (name: string) => {
      const mapping = mapStatement(
        launched({ account: { homePage: 'https://lms.example.org', name } }),
        nothingKnown,
      );
      return mapping.mapped ? mapping.learner.email : mapping.reason;
    };
    expect(email('..José  María..')).toBe('jos-mar-a@lms.example.org');
    expect(email('learner_42+test')).toBe('learner_42+test@lms.example.org');
    expect(email('a...b---c')).toBe('a.b-c@lms.example.org');
    expect(email('x'.repeat(70))).toBe(`${'x'.repeat(64)}@lms.example.org`);
    expect(email('***')).toBe('the actor account name has no character usable in an e-mail address');
    expect(email(`${'-.'.repeat(100_000)}x${'.-'.repeat(100_000)}`)).toBe('x@lms.example.org');
  });

  it('does not map an account without a usable home page host', () => {
    const reason = (homePage: string) => {
      const mapping = mapStatement(launched({ account: { homePage, name: 'learner42' } }), nothingKnown);
      return mapping.mapped ? null : mapping.reason;
    };
    expect(reason('not a url')).toBe('the actor account homePage is not a URL with a host name');
    expect(reason('urn:lms:acme')).toBe('the actor account homePage is not a URL with a host name');
    expect(reason('http://localhost:8080')).toBe(
      'the actor account makes learner42@localhost, which is not an e-mail address',
    );
  });

  it('lower-cases an mbox and refuses one that is not an e-mail address', () => {
    expect(mapStatement(launched({ mbox: 'MAILTO:Kim@Example.COM' }), nothingKnown)).toMatchObject({
      learner: { email: 'kim@example.com', name: null },
    });
    expect(mapStatement(launched({ mbox: 'mailto:kim' }), nothingKnown)).toEqual({
      mapped: false,
      reason: 'the actor mbox is not an e-mail address of at most 320 characters',
    });
    expect(
      mapStatement(launched({ mbox: `mailto:${'k'.repeat(320)}@example.com` }), nothingKnown),
    ).toMatchObject({
      mapped: false,
    });
  });

  it('does not map actors that are not an identifiable single learner', () => {
    const reason = (actor: XapiStatementLike['actor']) => {
      const mapping = mapStatement(launched(actor), nothingKnown);
      return mapping.mapped ? null : mapping.reason;
    };
    expect(reason({ mbox_sha1sum: 'ebd31e95054c018b10727ccffd2ef2ec3a016ee9' })).toBe(
      'the actor has only an mbox_sha1sum, which hides the e-mail address, so it is not a learner',
    );
    expect(reason({ openid: 'http://kim.openid.example.org' })).toBe(
      'the actor has only an openid, no mbox or account, so it is not a learner',
    );
    expect(reason({ objectType: 'Group', name: 'Team PB', mbox: 'mailto:teampb@example.com' })).toBe(
      'the actor is a Group, not a single learner',
    );
    expect(reason({ objectType: 'Agent', name: 'Nobody' })).toBe(
      'the actor has no mbox or account, so it is not a learner',
    );
  });

  it('trims the learner name and cuts a very long one', () => {
    const mapping = mapStatement(
      launched({ mbox: 'mailto:kim@example.com', name: `  ${'K'.repeat(250)}  ` }),
      nothingKnown,
    );
    expect(mapping.mapped && mapping.learner.name).toBe(`${'K'.repeat(199)}…`);
    expect(
      mapStatement(launched({ mbox: 'mailto:kim@example.com', name: '   ' }), nothingKnown),
    ).toMatchObject({
      learner: { name: null },
    });
  });
});

describe('mapStatement: finding the course', () => {
  const actor = { mbox: 'mailto:kim@example.com' };
  const slide = { id: 'https://tool.example/c1/slide-3', definition: { name: { 'en-US': 'Slide 3' } } };
  const courseOf = (statement: Omit<XapiStatementLike, 'actor'>, known = nothingKnown) => {
    const mapping = mapStatement({ actor, ...statement }, known);
    return mapping.mapped ? mapping.course : mapping.reason;
  };

  it('(a) takes the object when it is typed as a course, before any context', () => {
    expect(
      courseOf({
        verb: verb('attempted'),
        object: { id: 'https://tool.example/c1', definition: { type: COURSE_TYPE, name: { fr: 'Cours' } } },
        context: {
          contextActivities: {
            grouping: [{ id: 'https://tool.example/program', definition: { type: COURSE_TYPE } }],
          },
        },
      }),
    ).toEqual({ activityId: 'https://tool.example/c1', title: 'Cours' });
  });

  it('(b) takes the first grouping activity typed as a course, else the first such parent', () => {
    const course = (id: string) => ({ id, definition: { type: COURSE_TYPE } });
    expect(
      courseOf({
        verb: verb('experienced'),
        object: slide,
        context: {
          contextActivities: {
            parent: [course('https://tool.example/from-parent')],
            grouping: [{ id: 'https://tool.example/program' }, course('https://tool.example/from-grouping')],
          },
        },
      }),
    ).toEqual({ activityId: 'https://tool.example/from-grouping', title: null });
    expect(
      courseOf({
        verb: verb('experienced'),
        object: slide,
        context: {
          contextActivities: {
            parent: [{ id: 'https://tool.example/scene' }, course('https://tool.example/from-parent')],
            grouping: [{ id: 'https://tool.example/program' }],
          },
        },
      }),
    ).toEqual({ activityId: 'https://tool.example/from-parent', title: null });
  });

  it('(c) takes a grouping, else parent, activity the organization has as a course', () => {
    const known: KnownCourses = {
      courses: new Set(['https://tool.example/c1', 'https://tool.example/c2']),
      registrations: new Map(),
    };
    expect(
      courseOf(
        {
          verb: verb('experienced'),
          object: slide,
          context: {
            contextActivities: {
              parent: [{ id: 'https://tool.example/c2' }],
              grouping: [{ id: 'https://tool.example/program' }, { id: 'https://tool.example/c1' }],
            },
          },
        },
        known,
      ),
    ).toEqual({ activityId: 'https://tool.example/c1', title: null });
    expect(
      courseOf(
        {
          verb: verb('experienced'),
          object: slide,
          context: {
            contextActivities: {
              parent: [{ id: 'https://tool.example/scene' }, { id: 'https://tool.example/c2' }],
              grouping: [{ id: 'https://tool.example/program' }],
            },
          },
        },
        known,
      ),
    ).toEqual({ activityId: 'https://tool.example/c2', title: null });
  });

  it('(d) takes the course seen earlier with the registration, whatever its case', () => {
    const known: KnownCourses = {
      courses: new Set(),
      registrations: new Map([['e5a3f4c2-8b0d-4c8e-9d1a-2f6b7c8d9e0f', 'https://tool.example/c1']]),
    };
    expect(
      courseOf(
        {
          verb: verb('experienced'),
          object: slide,
          context: {
            registration: REGISTRATION,
            contextActivities: { parent: [{ id: 'https://tool.example/scene' }] },
          },
        },
        known,
      ),
    ).toEqual({ activityId: 'https://tool.example/c1', title: null });
  });

  it('(c) comes before (d): a known grouping course wins over the registration', () => {
    const known: KnownCourses = {
      courses: new Set(['https://tool.example/c2']),
      registrations: new Map([['e5a3f4c2-8b0d-4c8e-9d1a-2f6b7c8d9e0f', 'https://tool.example/c1']]),
    };
    expect(
      courseOf(
        {
          verb: verb('experienced'),
          object: slide,
          context: {
            registration: REGISTRATION,
            contextActivities: { grouping: [{ id: 'https://tool.example/c2' }] },
          },
        },
        known,
      ),
    ).toEqual({ activityId: 'https://tool.example/c2', title: null });
  });

  it('(e) takes the object of a course-level verb (a cmi5 AU launched without context)', () => {
    expect(
      courseOf({
        verb: verb('initialized'),
        object: { id: 'https://ispring.example/quiz-au', definition: { name: { 'en-US': 'Quiz' } } },
      }),
    ).toEqual({ activityId: 'https://ispring.example/quiz-au', title: 'Quiz' });
    expect(
      courseOf({
        verb: { id: 'https://w3id.org/xapi/adl/verbs/satisfied' },
        object: { id: 'https://lms.example/cmi5/course-7' },
      }),
    ).toEqual({ activityId: 'https://lms.example/cmi5/course-7', title: null });
  });

  it('(f) falls back to the first grouping activity, else the first parent activity', () => {
    expect(
      courseOf({
        verb: verb('experienced'),
        object: slide,
        context: {
          contextActivities: {
            parent: [{ id: 'https://tool.example/scene' }],
            grouping: [{ id: 'https://tool.example/c1', definition: { name: { 'en-US': 'Course one' } } }],
          },
        },
      }),
    ).toEqual({ activityId: 'https://tool.example/c1', title: 'Course one' });
    expect(
      courseOf({
        verb: verb('experienced'),
        object: slide,
        context: { contextActivities: { parent: [{ id: 'https://tool.example/c1' }], grouping: [] } },
      }),
    ).toEqual({ activityId: 'https://tool.example/c1', title: null });
  });

  it('does not map a statement with no course anywhere, or a course id too long to keep', () => {
    expect(courseOf({ verb: verb('experienced'), object: slide })).toBe(
      'no course activity in the object, context or registration',
    );
    expect(
      courseOf({ verb: verb('attempted'), object: { id: `https://tool.example/${'c'.repeat(240)}` } }),
    ).toBe('the course activity id is longer than 255 characters');
  });

  it('names the course from wherever the statement describes it', () => {
    expect(
      courseOf({
        verb: verb('experienced'),
        object: slide,
        context: {
          contextActivities: {
            grouping: [{ id: 'https://tool.example/c1', definition: { type: COURSE_TYPE } }],
            other: [
              { id: 'https://tool.example/c1', definition: { name: { de: 'Kurs', 'en-US': 'Course' } } },
            ],
          },
        },
      }),
    ).toEqual({ activityId: 'https://tool.example/c1', title: 'Course' });
  });
});

describe('mapStatement: verbs', () => {
  const actor = { mbox: 'mailto:kim@example.com' };
  const course: XapiActivityLike = { id: 'https://tool.example/c1', definition: { type: COURSE_TYPE } };
  const factsOf = (statement: Omit<XapiStatementLike, 'actor'>) => {
    const mapping = mapStatement({ actor, ...statement }, nothingKnown);
    return mapping.mapped ? mapping.facts : mapping.reason;
  };

  it('starts the course on launched, initialized and attempted', () => {
    for (const name of ['launched', 'initialized', 'attempted']) {
      expect(factsOf({ verb: verb(name), object: course })).toEqual([{ type: 'course.started' }]);
    }
  });

  it('exits on terminated and exited, and reads the cmi5 aliases satisfied and abandoned', () => {
    expect(factsOf({ verb: verb('terminated'), object: course })).toEqual([{ type: 'course.exited' }]);
    expect(factsOf({ verb: verb('exited'), object: course, result: { completion: true } })).toEqual([
      { type: 'course.completed' },
    ]);
    expect(factsOf({ verb: { id: 'https://w3id.org/xapi/adl/verbs/satisfied' }, object: course })).toEqual([
      { type: 'course.completed' },
    ]);
    expect(factsOf({ verb: { id: 'https://w3id.org/xapi/adl/verbs/abandoned' }, object: course })).toEqual([
      { type: 'course.exited' },
    ]);
  });

  it('matches verb ids exactly', () => {
    expect(factsOf({ verb: { id: 'https://adlnet.gov/expapi/verbs/completed' }, object: course })).toBe(
      'no fact for verb https://adlnet.gov/expapi/verbs/completed',
    );
    expect(factsOf({ verb: { id: 'http://adlnet.gov/expapi/verbs/Completed' }, object: course })).toBe(
      'no fact for verb http://adlnet.gov/expapi/verbs/Completed',
    );
  });

  it('has no fact for resumed or for verbs it does not know', () => {
    expect(factsOf({ verb: verb('resumed'), object: course })).toBe(
      'no fact for verb http://adlnet.gov/expapi/verbs/resumed',
    );
    expect(factsOf({ verb: { id: 'http://activitystrea.ms/open' }, object: course })).toBe(
      'no fact for verb http://activitystrea.ms/open',
    );
  });

  it('has no slide for experienced on the course itself', () => {
    expect(factsOf({ verb: verb('experienced'), object: course })).toBe(
      'no fact for verb http://adlnet.gov/expapi/verbs/experienced on the course itself (only other activities are slides)',
    );
  });

  it('has no question for answered without an interactionType, or with an interaction id too long', () => {
    const context = { contextActivities: { grouping: [course] } };
    expect(factsOf({ verb: verb('answered'), object: { id: 'https://tool.example/c1/q1' }, context })).toBe(
      'no fact for verb http://adlnet.gov/expapi/verbs/answered on an activity without an interactionType',
    );
    expect(
      factsOf({
        verb: verb('answered'),
        object: {
          id: `https://tool.example/c1/${'q'.repeat(240)}`,
          definition: { interactionType: 'choice' },
        },
        result: { response: 'a' },
        context,
      }),
    ).toBe('the interaction id is longer than 255 characters');
  });

  it('cuts a question text longer than 5000 characters', () => {
    const facts = factsOf({
      verb: verb('answered'),
      object: {
        id: 'https://tool.example/c1/q1',
        definition: { interactionType: 'other', description: { 'en-US': 'Q'.repeat(6000) } },
      },
      context: { contextActivities: { grouping: [course] } },
    });
    const [fact] = Array.isArray(facts) ? facts : [];
    expect(fact?.type === 'question.answered' && fact.question.text).toBe(`${'Q'.repeat(4999)}…`);
  });
});

describe('mapStatement: statements that change nothing', () => {
  const actor = { mbox: 'mailto:kim@example.com' };

  it('does not map a voiding statement', () => {
    expect(
      mapStatement(
        {
          actor,
          verb: { id: 'http://adlnet.gov/expapi/verbs/voided' },
          object: { objectType: 'StatementRef', id: 'e05aa883-acaf-40ad-bf54-02c8ce485fb0' },
        },
        nothingKnown,
      ),
    ).toEqual({ mapped: false, reason: 'a voiding statement changes no facts' });
  });

  it('does not map objects that are not activities', () => {
    const reason = (object: XapiStatementLike['object']) => {
      const mapping = mapStatement({ actor, verb: verb('experienced'), object }, nothingKnown);
      return mapping.mapped ? null : mapping.reason;
    };
    expect(reason({ objectType: 'StatementRef', id: '8f87ccde-bb56-4c2e-ab83-44982ef22df0' })).toBe(
      'the object is not an activity (objectType StatementRef), so it changes no facts',
    );
    expect(reason({ objectType: 'SubStatement' })).toBe(
      'the object is not an activity (objectType SubStatement), so it changes no facts',
    );
    expect(reason({ objectType: 'Agent' })).toBe(
      'the object is not an activity (objectType Agent), so it changes no facts',
    );
    expect(reason({ objectType: 'Group' })).toBe(
      'the object is not an activity (objectType Group), so it changes no facts',
    );
  });
});
