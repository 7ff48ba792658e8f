import type { Database } from '../client';
import {
  broadcasts,
  courseRunQuestions,
  courseRuns,
  courses,
  learnerVariableValues,
  learners,
  questions,
  toTypedValue,
  variables,
  type Broadcast,
  type Course,
  type CourseRun,
  type CourseRunQuestion,
  type Learner,
  type LearnerVariableValue,
  type NewBroadcast,
  type NewCourse,
  type NewCourseRun,
  type NewCourseRunQuestion,
  type NewLearner,
  type NewLearnerVariableValue,
  type NewQuestion,
  type NewVariable,
  type Question,
  type Variable,
  type VariableDataType,
} from '../schema';
import { nextSequence, onlyRow, uniqueSuffix } from './sequence';

type Tenant = { organizationId: string };

export function buildCourse(overrides: Partial<NewCourse> & Tenant): NewCourse {
  const n = nextSequence();
  return {
    courseTitle: `Course ${n}`,
    externalCourseId: `course-${n}-${uniqueSuffix()}`,
    ...overrides,
  };
}

export async function insertCourse(db: Database, overrides: Partial<NewCourse> & Tenant): Promise<Course> {
  return onlyRow(await db.insert(courses).values(buildCourse(overrides)).returning());
}

export function buildBroadcast(
  overrides: Partial<NewBroadcast> & Tenant & Pick<NewBroadcast, 'courseId'>,
): NewBroadcast {
  return { message: `Announcement ${nextSequence()}`, ...overrides };
}

export async function insertBroadcast(
  db: Database,
  overrides: Partial<NewBroadcast> & Tenant & Pick<NewBroadcast, 'courseId'>,
): Promise<Broadcast> {
  return onlyRow(await db.insert(broadcasts).values(buildBroadcast(overrides)).returning());
}

export function buildLearner(overrides: Partial<NewLearner> & Tenant): NewLearner {
  const n = nextSequence();
  return {
    name: `Learner ${n}`,
    email: `learner${n}.${uniqueSuffix()}@example.com`,
    ...overrides,
  };
}

export async function insertLearner(db: Database, overrides: Partial<NewLearner> & Tenant): Promise<Learner> {
  return onlyRow(await db.insert(learners).values(buildLearner(overrides)).returning());
}

type RunRefs = Tenant & Pick<NewCourseRun, 'courseId' | 'learnerId'>;

export function buildCourseRun(overrides: Partial<NewCourseRun> & RunRefs): NewCourseRun {
  return { ...overrides };
}

export async function insertCourseRun(
  db: Database,
  overrides: Partial<NewCourseRun> & RunRefs,
): Promise<CourseRun> {
  return onlyRow(await db.insert(courseRuns).values(buildCourseRun(overrides)).returning());
}

export function buildVariable(
  overrides: Partial<NewVariable> & Tenant & Pick<NewVariable, 'courseId'>,
): NewVariable {
  const n = nextSequence();
  return { name: `variable_${n}`, title: `Variable ${n}`, dataType: 'text', ...overrides };
}

export async function insertVariable(
  db: Database,
  overrides: Partial<NewVariable> & Tenant & Pick<NewVariable, 'courseId'>,
): Promise<Variable> {
  return onlyRow(await db.insert(variables).values(buildVariable(overrides)).returning());
}

type ValueRefs = Tenant & Pick<NewLearnerVariableValue, 'variableId' | 'learnerId' | 'courseId'>;

/**
 * A value row. Pass `raw` (and the variable's `dataType`) to fill `value` and
 * the typed column the way ingestion does, or set the columns yourself.
 */
export function buildVariableValue(
  overrides: Partial<NewLearnerVariableValue> &
    ValueRefs & { raw?: string | number | boolean | Date | null; dataType?: VariableDataType },
): NewLearnerVariableValue {
  const { raw, dataType, ...columns } = overrides;
  const typed = raw === undefined ? {} : toTypedValue(dataType ?? 'text', raw);
  return { ...typed, ...columns };
}

export async function insertVariableValue(
  db: Database,
  overrides: Parameters<typeof buildVariableValue>[0],
): Promise<LearnerVariableValue> {
  return onlyRow(await db.insert(learnerVariableValues).values(buildVariableValue(overrides)).returning());
}

export function buildQuestion(
  overrides: Partial<NewQuestion> & Tenant & Pick<NewQuestion, 'courseId'>,
): NewQuestion {
  const n = nextSequence();
  return {
    interactionId: `interaction-${n}`,
    slideNumber: n,
    questionNumber: 1,
    questionText: `Question ${n}?`,
    correctAnswer: 'A',
    ...overrides,
  };
}

export async function insertQuestion(
  db: Database,
  overrides: Partial<NewQuestion> & Tenant & Pick<NewQuestion, 'courseId'>,
): Promise<Question> {
  return onlyRow(await db.insert(questions).values(buildQuestion(overrides)).returning());
}

type ResponseRefs = Tenant & Pick<NewCourseRunQuestion, 'questionId' | 'learnerId' | 'courseId'>;

/** A learner's answer (a `course_run_questions` row). */
export function buildResponse(overrides: Partial<NewCourseRunQuestion> & ResponseRefs): NewCourseRunQuestion {
  return { answerChoice: 'A', correct: true, correctAnswer: 'A', pointsAssigned: 10, ...overrides };
}

export async function insertResponse(
  db: Database,
  overrides: Partial<NewCourseRunQuestion> & ResponseRefs,
): Promise<CourseRunQuestion> {
  return onlyRow(await db.insert(courseRunQuestions).values(buildResponse(overrides)).returning());
}
