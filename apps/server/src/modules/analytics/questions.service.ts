import {
  LEARNING_MESSAGES,
  type QuestionAnalysisCoursesResponse,
  type QuestionAnalysisResponse,
  type QuestionStatistics,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { analyticsBasis, type AnalyticsScope } from './analytics-settings.service';
import { analyseQuiz, type OptionSums, type QuestionInput, type ValueCount } from './item-statistics';
import {
  selectAnalysisCourses,
  selectLiveCourse,
  selectQuizSums,
  type AnalysisRow,
  type QuestionAnalysisPeriod,
} from './questions.queries';

type QuestionMeta = Pick<
  QuestionStatistics,
  'questionId' | 'interactionId' | 'slideNumber' | 'questionNumber' | 'text' | 'correctAnswer'
>;

type Collected = {
  meta: QuestionMeta;
  input: QuestionInput & { sums: { marks: ValueCount[]; rests: ValueCount[]; totals: ValueCount[] } };
  options: OptionSums[];
};

const num = (value: number | string | null | undefined) =>
  value === null || value === undefined ? 0 : Number(value);

/** The statement's rows, grouped per question into the inputs of `analyseQuiz`. */
function collect(rows: readonly AnalysisRow[]) {
  const byQuestion = new Map<string, Collected>();
  const attemptTotals: ValueCount[] = [];
  let meta = { learners: 0, runsWithoutAnswers: 0, hiddenQuestions: 0 };
  const entry = (questionId: string): Collected => {
    let found = byQuestion.get(questionId);
    if (!found) {
      found = {
        meta: {
          questionId,
          interactionId: '',
          slideNumber: null,
          questionNumber: null,
          text: null,
          correctAnswer: null,
        },
        input: {
          sums: {
            answered: 0,
            maxMark: 1,
            sumMark: 0,
            sumMarkSquared: 0,
            sumMarkTimesTotal: 0,
            sumTotal: 0,
            marks: [],
            rests: [],
            totals: [],
          },
          options: [],
          distinctAnswers: 0,
        },
        options: [],
      };
      byQuestion.set(questionId, found);
    }
    return found;
  };
  for (const row of rows) {
    if (row.kind === 'attempt_total') {
      attemptTotals.push({ value: num(row.value), count: num(row.n) });
      continue;
    }
    if (row.kind === 'meta') {
      meta = {
        learners: num(row.learners),
        runsWithoutAnswers: num(row.runs_without_answers),
        hiddenQuestions: num(row.hidden_questions),
      };
      continue;
    }
    if (!row.question_id) continue;
    const question = entry(row.question_id);
    const sums = question.input.sums;
    const bin = { value: num(row.value), count: num(row.n) };
    switch (row.kind) {
      case 'question': {
        const maxMark = num(row.max_mark);
        question.meta = {
          questionId: row.question_id,
          interactionId: row.interaction_id ?? '',
          slideNumber: row.slide_number,
          questionNumber: row.question_number,
          text: row.question_text,
          correctAnswer: row.correct_answer,
        };
        Object.assign(sums, {
          answered: num(row.n),
          // The most points seen for the question; a right/wrong question (or one nobody scored on) is worth 1.
          maxMark: maxMark > 0 ? maxMark : 1,
          sumMark: num(row.sum_mark),
          sumMarkSquared: num(row.sum_mark_squared),
          sumMarkTimesTotal: num(row.sum_mark_total),
          sumTotal: num(row.sum_total),
        });
        break;
      }
      case 'mark':
        sums.marks.push(bin);
        break;
      case 'rest':
        sums.rests.push(bin);
        break;
      case 'total':
        sums.totals.push(bin);
        break;
      case 'option':
        question.options.push({
          answer: row.answer,
          count: num(row.n),
          sumRest: num(row.sum_rest),
          sumMark: num(row.sum_mark),
          graded: num(row.graded),
        });
        question.input.distinctAnswers = num(row.option_groups);
        break;
    }
  }
  const ordered = [...byQuestion.values()]
    .map((question) => ({ ...question, input: { ...question.input, options: question.options } }))
    .sort(byPosition);
  return { questions: ordered, attemptTotals, meta };
}

/** Slide, then question number, then interaction id: the order a learner meets them. */
function byPosition(a: { meta: QuestionMeta }, b: { meta: QuestionMeta }): number {
  const order = (value: number | null) => value ?? Number.MAX_SAFE_INTEGER;
  return (
    order(a.meta.slideNumber) - order(b.meta.slideNumber) ||
    order(a.meta.questionNumber) - order(b.meta.questionNumber) ||
    a.meta.interactionId.localeCompare(b.meta.interactionId)
  );
}

/**
 * Moodle's quiz statistics of one course's questions read as a quiz, over
 * the attempts the settings name (each learner's first finished run by
 * default), in an optional period of run starts. Throws NOT_FOUND for a
 * course that is not a live course of the organization. Reusable by other
 * modules (the insights job reads the flags from it).
 */
export async function getQuestionAnalysis(
  db: Database,
  scope: AnalyticsScope,
  input: { courseId: string; from?: string | undefined; to?: string | undefined },
): Promise<QuestionAnalysisResponse> {
  const course = await selectLiveCourse(db, scope.organizationId, input.courseId);
  if (!course) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  const period: QuestionAnalysisPeriod = { from: input.from, to: input.to };
  const [rows, basis] = await Promise.all([
    selectQuizSums(db, scope.organizationId, scope.settings, course.id, period),
    analyticsBasis(db, scope),
  ]);
  const collected = collect(rows);
  const analysis = analyseQuiz(
    collected.attemptTotals,
    collected.questions.map((question) => question.input),
  );
  const { variance: _variance, ...quiz } = analysis.quiz;
  return {
    course: { id: course.id, title: course.title },
    quiz,
    questions: analysis.questions.map((figures, index) => {
      const meta = collected.questions[index]?.meta as QuestionMeta;
      return {
        ...meta,
        attempts: figures.attempts,
        answered: figures.answered,
        maxMark: figures.maxMark,
        meanMark: figures.meanMark,
        facility: figures.facility,
        standardDeviation: figures.standardDeviation,
        randomGuessScore: figures.randomGuessScore,
        randomGuessBasis: figures.randomGuessBasis,
        intendedWeight: figures.intendedWeight,
        effectiveWeight: figures.effectiveWeight,
        discriminationIndex: figures.discriminationIndex,
        discriminativeEfficiency: figures.discriminativeEfficiency,
        flags: figures.flags,
        notes: figures.notes,
        options: figures.options,
        otherOptions: figures.otherOptions,
      };
    }),
    basis: {
      ...basis,
      itemAnalysisAttempts: scope.settings.itemAnalysisAttempts,
      learners: collected.meta.learners,
      runsWithoutAnswers: collected.meta.runsWithoutAnswers,
      hiddenQuestions: collected.meta.hiddenQuestions,
      from: input.from ?? null,
      to: input.to ?? null,
    },
  };
}

/** The courses the screen's picker offers, and the first with answers to open by default. */
export async function listQuestionAnalysisCourses(
  db: Database,
  organizationId: string,
): Promise<QuestionAnalysisCoursesResponse> {
  const rows = await selectAnalysisCourses(db, organizationId);
  const courses = rows.map((row) => ({
    id: row.id,
    title: row.title,
    questions: num(row.questions),
    hasAnswers: Boolean(row.has_answers),
  }));
  return { courses, defaultCourseId: courses.find((course) => course.hasAnswers)?.id ?? null };
}
