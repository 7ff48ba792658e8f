import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyseQuiz,
  completeItem,
  describeTotals,
  effectiveWeights,
  flagQuestion,
  formatCoefficient,
  inferRandomGuess,
  intendedWeight,
  itemFigures,
  medianOf,
  normalizeHistogram,
  pointBiserial,
  quizFigures,
  sortedPairSum,
  type AnsweredItemSums,
  type OptionSums,
  type QuestionInput,
  type ValueCount,
} from './item-statistics';

// A cell of an attempt × question matrix: the mark and answer given, or null when not answered (scores 0).
type Cell = { mark: number; answer: string | null; graded?: boolean } | null;

/** What the SQL of `questions.queries.ts` returns, built from a matrix by hand. */
function sumsOf(matrix: readonly (readonly Cell[])[]): { totals: ValueCount[]; questions: QuestionInput[] } {
  const totalsOfAttempts = matrix.map((row) => row.reduce((sum, cell) => sum + (cell?.mark ?? 0), 0));
  const count = (values: number[]) => normalizeHistogram(values.map((value) => ({ value, count: 1 })));
  const width = matrix[0]?.length ?? 0;
  const questions = Array.from({ length: width }, (_, column): QuestionInput => {
    const rows = matrix
      .map((row, index) => ({ cell: row[column] ?? null, total: totalsOfAttempts[index] ?? 0 }))
      .filter((row): row is { cell: NonNullable<Cell>; total: number } => row.cell !== null);
    const byAnswer = new Map<string | null, OptionSums>();
    for (const { cell, total } of rows) {
      const option = byAnswer.get(cell.answer) ?? {
        answer: cell.answer,
        count: 0,
        sumRest: 0,
        sumMark: 0,
        graded: 0,
      };
      option.count += 1;
      option.sumRest += total - cell.mark;
      option.sumMark += cell.mark;
      option.graded += cell.graded === false ? 0 : 1;
      byAnswer.set(cell.answer, option);
    }
    const sums: AnsweredItemSums = {
      answered: rows.length,
      maxMark: Math.max(1, ...rows.map((row) => row.cell.mark)),
      sumMark: rows.reduce((sum, row) => sum + row.cell.mark, 0),
      sumMarkSquared: rows.reduce((sum, row) => sum + row.cell.mark ** 2, 0),
      sumMarkTimesTotal: rows.reduce((sum, row) => sum + row.cell.mark * row.total, 0),
      sumTotal: rows.reduce((sum, row) => sum + row.total, 0),
      marks: count(rows.map((row) => row.cell.mark)),
      rests: count(rows.map((row) => row.total - row.cell.mark)),
      totals: count(rows.map((row) => row.total)),
    };
    return { sums, options: [...byAnswer.values()], distinctAnswers: byAnswer.size };
  });
  return { totals: count(totalsOfAttempts), questions };
}

/** Moodle's walk, attempt by attempt (question/classes/statistics/questions/calculator.php), as the reference. */
function moodleWalk(matrix: readonly (readonly Cell[])[]) {
  const s = matrix.length;
  const width = matrix[0]?.length ?? 0;
  const marks = matrix.map((row) => row.map((cell) => cell?.mark ?? 0));
  const totals = marks.map((row) => row.reduce((a, b) => a + b, 0));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const items = Array.from({ length: width }, (_, j) => {
    const x = marks.map((row) => row[j] ?? 0);
    const rest = x.map((value, i) => (totals[i] ?? 0) - value);
    const maxMark = Math.max(1, ...matrix.flatMap((row) => (row[j] ? [row[j].mark] : [])));
    const mx = mean(x);
    const mr = mean(rest);
    const mt = mean(totals);
    const sortedX = [...x].sort((a, b) => a - b);
    const sortedR = [...rest].sort((a, b) => a - b);
    let markVarianceSum = 0;
    let restVarianceSum = 0;
    let covarianceSum = 0;
    let covarianceMaxSum = 0;
    let covarianceWithTotalSum = 0;
    for (let i = 0; i < s; i += 1) {
      const dx = (x[i] ?? 0) - mx;
      const dr = (rest[i] ?? 0) - mr;
      markVarianceSum += dx * dx;
      restVarianceSum += dr * dr;
      covarianceSum += dx * dr;
      covarianceMaxSum += ((sortedX[i] ?? 0) - mx) * ((sortedR[i] ?? 0) - mr);
      covarianceWithTotalSum += dx * ((totals[i] ?? 0) - mt);
    }
    const markVariance = markVarianceSum / (s - 1);
    const restVariance = restVarianceSum / (s - 1);
    const covariance = covarianceSum / (s - 1);
    const covarianceMax = covarianceMaxSum / (s - 1);
    return {
      maxMark,
      facility: mx / maxMark,
      sd: Math.sqrt(markVariance) / maxMark,
      markVariance,
      covarianceWithTotal: covarianceWithTotalSum / (s - 1),
      discrimination:
        markVariance * restVariance > 1e-12 ? covariance / Math.sqrt(markVariance * restVariance) : null,
      efficiency: Math.abs(covarianceMax) > 1e-12 ? covariance / covarianceMax : null,
      rest,
    };
  });
  const mt = mean(totals);
  const variance = totals.reduce((sum, t) => sum + (t - mt) ** 2, 0) / (s - 1);
  const alpha =
    (width / (width - 1)) * (1 - items.reduce((sum, item) => sum + item.markVariance, 0) / variance);
  return { items, totals, variance, alpha };
}

/** Pearson's r, written out, for the point-biserial reference. */
function pearson(a: number[], b: number[]): number {
  const ma = a.reduce((x, y) => x + y, 0) / a.length;
  const mb = b.reduce((x, y) => x + y, 0) / b.length;
  let cov = 0;
  let va = 0;
  let vb = 0;
  a.forEach((value, i) => {
    cov += (value - ma) * ((b[i] ?? 0) - mb);
    va += (value - ma) ** 2;
    vb += ((b[i] ?? 0) - mb) ** 2;
  });
  return cov / Math.sqrt(va * vb);
}

/*
 * The fixture: 5 attempts × 4 right/wrong questions (1 right, 0 wrong),
 * answers "B" right and "A" wrong. Every expected value below was worked out
 * by hand, step by step, and checked with exact fractions (Python's
 * `fractions.Fraction`, the same formulas).
 *
 *            Q1 Q2 Q3 Q4 | total
 *   A1        1  1  1  0 |  3
 *   A2        1  1  1  1 |  4
 *   A3        1  1  0  0 |  2
 *   A4        1  0  0  1 |  2
 *   A5        0  0  0  1 |  1
 *
 * Totals: mean 12/5 = 2.4; deviations 0.6, 1.6, −0.4, −0.4, −1.4;
 *   Σd² = 0.36 + 2.56 + 0.16 + 0.16 + 1.96 = 5.2 → variance 5.2/4 = 1.3, sd √1.3 = 1.140175…
 *   Σd³ = 0.216 + 4.096 − 0.064 − 0.064 − 2.744 = 1.44; Σd⁴ = 0.1296 + 6.5536 + 0.0256 + 0.0256 + 3.8416 = 10.576
 *   m2 = 1.04, m3 = 0.288, m4 = 2.1152; k2 = 5·1.04/4 = 1.3; k3 = 25·0.288/12 = 0.6;
 *   skewness = 0.6 / 1.3^1.5 = 0.404796…; k4 = 25·(6·2.1152 − 12·1.0816)/24 = 25·(−0.288)/24 = −0.3;
 *   kurtosis = −0.3 / 1.69 = −30/169. Median of 1, 2, 2, 3, 4 = 2.
 * Q1: x 1,1,1,1,0 (mean 0.8, var Σ(x−0.8)²/4 = 0.8/4 = 0.2); rest 2,3,1,1,1 (mean 1.6),
 *   rest deviations 0.4, 1.4, −0.6, −0.6, −0.6: Σ = 0.16+1.96+0.36·3 = 3.2 → var 0.8;
 *   cov(x, rest) = Σ dx·dr /4 = (0.2·0.4 + 0.2·1.4 − 0.2·0.6 − 0.2·0.6 + (−0.8)(−0.6))/4 = 0.6/4 = 0.15;
 *   discrimination = 0.15/√(0.2·0.8) = 0.15/0.4 = 0.375; sorted pairing equals the actual one → efficiency 1.
 *   cov(x, total) = cov(x, rest) + var(x) = 0.35.
 * Q2: x 1,1,1,0,0 (mean 0.6, var 0.3); rest 2,3,1,2,1 (mean 1.8, var 0.7); cov = 0.15;
 *   discrimination 0.15/√0.21 = 0.327327…; sorted x 0,0,1,1,1 with sorted rest 1,1,2,2,3: cov max 0.4,
 *   efficiency 0.15/0.4 = 3/8; cov(x, total) = 0.45.
 * Q3: x 1,1,0,0,0 (mean 0.4, var 0.3); rest 2,3,2,2,1 (mean 2, var 0.5); cov 0.25;
 *   discrimination 0.25/√0.15 = 0.645497…; efficiency 1; cov(x, total) = 0.55.
 * Q4: x 0,1,0,1,1 (mean 0.6, var 0.3); rest 3,3,2,1,0 (mean 1.8, var 1.7); cov −0.35;
 *   discrimination −0.35/√0.51 = −0.490098…; cov max 0.65, efficiency −7/13; cov(x, total) = −0.05 < 0.
 * Alpha: p = 4, Σ var(x) = 0.2 + 0.3·3 = 1.1 → 4/3 · (1 − 1.1/1.3) = 8/39 = 0.205128…;
 *   error ratio √(31/39) = 0.891555…; standard error 0.891555… · 1.140175… = 1.016530…
 * Effective weights: √0.35, √0.45, √0.55 over their sum (Q4 negative: none):
 *   0.591608/2.004048 = 0.295206…, 0.670820/2.004048 = 0.334733…, 0.741620/2.004048 = 0.370061…
 * Point-biserial of Q4's wrong answer "A" (chosen by A1, A3): the mirror of the item, +0.490098…
 */
const R = (mark: 1 | 0): Cell => ({ mark, answer: mark === 1 ? 'B' : 'A' });
const fixture: Cell[][] = [
  [R(1), R(1), R(1), R(0)],
  [R(1), R(1), R(1), R(1)],
  [R(1), R(1), R(0), R(0)],
  [R(1), R(0), R(0), R(1)],
  [R(0), R(0), R(0), R(1)],
];

describe('the quiz statistics of the 5 × 4 fixture, computed by hand', () => {
  const { totals, questions } = sumsOf(fixture);
  const analysis = analyseQuiz(totals, questions);

  it('describes the totals: attempts, mean, median, sd (n − 1), skewness and kurtosis', () => {
    const quiz = analysis.quiz;
    expect(quiz.attempts).toBe(5);
    expect(quiz.questions).toBe(4);
    expect(quiz.maxTotal).toBe(4);
    expect(quiz.mean).toBeCloseTo(2.4, 12);
    expect(quiz.median).toBe(2);
    expect(quiz.variance).toBeCloseTo(1.3, 12);
    expect(quiz.standardDeviation).toBeCloseTo(Math.sqrt(1.3), 12);
    expect(quiz.skewness).toBeCloseTo(0.6 / 1.3 ** 1.5, 12);
    expect(quiz.skewness).toBeCloseTo(0.404796, 6);
    expect(quiz.kurtosis).toBeCloseTo(-30 / 169, 12);
  });

  it('computes Cronbach’s alpha (KR-20), the error ratio and the standard error', () => {
    expect(analysis.quiz.cronbachAlpha).toBeCloseTo(8 / 39, 12);
    expect(analysis.quiz.errorRatio).toBeCloseTo(Math.sqrt(31 / 39), 12);
    expect(analysis.quiz.standardError).toBeCloseTo(Math.sqrt(31 / 39) * Math.sqrt(1.3), 12);
    expect(analysis.quiz.standardError).toBeCloseTo(1.01653, 5);
    expect(analysis.quiz.notes).toEqual([]);
  });

  it('computes facility, sd, discrimination and efficiency per question', () => {
    const [q1, q2, q3, q4] = analysis.questions;
    expect([q1?.facility, q2?.facility, q3?.facility, q4?.facility]).toEqual([0.8, 0.6, 0.4, 0.6]);
    expect(q1?.standardDeviation).toBeCloseTo(Math.sqrt(0.2), 12);
    expect(q2?.standardDeviation).toBeCloseTo(Math.sqrt(0.3), 12);
    expect(q1?.discriminationIndex).toBeCloseTo(0.375, 12);
    expect(q2?.discriminationIndex).toBeCloseTo(0.15 / Math.sqrt(0.21), 12);
    expect(q3?.discriminationIndex).toBeCloseTo(0.25 / Math.sqrt(0.15), 12);
    expect(q4?.discriminationIndex).toBeCloseTo(-0.35 / Math.sqrt(0.51), 12);
    expect(q4?.discriminationIndex).toBeCloseTo(-0.490098, 6);
    expect(q1?.discriminativeEfficiency).toBeCloseTo(1, 12);
    expect(q2?.discriminativeEfficiency).toBeCloseTo(3 / 8, 12);
    expect(q3?.discriminativeEfficiency).toBeCloseTo(1, 12);
    expect(q4?.discriminativeEfficiency).toBeCloseTo(-7 / 13, 12);
  });

  it('computes intended and effective weights, none for a negative covariance', () => {
    const weights = analysis.questions.map((question) => question.effectiveWeight);
    const roots = [0.35, 0.45, 0.55].map(Math.sqrt);
    const sum = roots.reduce((a, b) => a + b, 0);
    expect(weights[0]).toBeCloseTo((roots[0] ?? 0) / sum, 12);
    expect(weights[1]).toBeCloseTo((roots[1] ?? 0) / sum, 12);
    expect(weights[2]).toBeCloseTo((roots[2] ?? 0) / sum, 12);
    expect(weights[0]).toBeCloseTo(0.295206, 5);
    expect(weights[3]).toBeNull();
    expect(analysis.questions[3]?.notes.join(' ')).toMatch(/Negative covariance/);
    expect(analysis.questions.map((question) => question.intendedWeight)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('gives each answer its share and point-biserial with the rest score', () => {
    const q4 = analysis.questions[3];
    expect(
      q4?.options.map((option) => [option.answer, option.isCorrect, option.count, option.share]),
    ).toEqual([
      ['B', true, 3, 0.6],
      ['A', false, 2, 0.4],
    ]);
    expect(q4?.options[1]?.pointBiserial).toBeCloseTo(0.490098, 6);
    expect(q4?.options[0]?.pointBiserial).toBeCloseTo(-0.490098, 6);
  });

  it('matches Moodle’s attempt-by-attempt walk on the same matrix', () => {
    const reference = moodleWalk(fixture);
    analysis.questions.forEach((question, j) => {
      const item = reference.items[j];
      expect(question.facility).toBeCloseTo(item?.facility ?? NaN, 12);
      expect(question.discriminationIndex).toBeCloseTo(item?.discrimination ?? NaN, 12);
      expect(question.discriminativeEfficiency).toBeCloseTo(item?.efficiency ?? NaN, 12);
    });
    expect(analysis.quiz.cronbachAlpha).toBeCloseTo(reference.alpha, 12);
  });
});

describe('weighted marks and unanswered questions', () => {
  // Q1 worth 2 (points sent), Q2 right/wrong; A3 did not answer Q2 (scores 0), A4 did not answer Q1.
  const matrix: Cell[][] = [
    [
      { mark: 2, answer: 'x' },
      { mark: 1, answer: 'B' },
    ],
    [
      { mark: 1, answer: 'y' },
      { mark: 1, answer: 'B' },
    ],
    [{ mark: 2, answer: 'x' }, null],
    [null, { mark: 0, answer: 'A' }],
    [
      { mark: 0, answer: 'z' },
      { mark: 1, answer: 'B' },
    ],
  ];
  const { totals, questions } = sumsOf(matrix);
  const analysis = analyseQuiz(totals, questions);

  it('scores an unanswered question 0 and lists it as its own option', () => {
    // Totals 3, 2, 2, 0, 1; Q2 marks 1, 1, 0 (unanswered), 0, 1 → facility 3/5.
    expect(analysis.quiz.mean).toBeCloseTo(8 / 5, 12);
    expect(analysis.quiz.maxTotal).toBe(3);
    const q2 = analysis.questions[1];
    expect(q2?.facility).toBeCloseTo(0.6, 12);
    expect(q2?.answered).toBe(4);
    const unanswered = q2?.options.find((option) => !option.isAnswered);
    expect(unanswered).toMatchObject({ answer: null, count: 1, share: 0.2, isCorrect: false });
    // Chose "no answer" (A3, rest 2) against the others' rests 2, 1, 0, 0 (A1 2, A2 1, A4 0, A5 0).
    const rests = [2, 1, 2, 0, 0];
    expect(unanswered?.pointBiserial).toBeCloseTo(pearson([0, 0, 1, 0, 0], rests), 12);
  });

  it('takes a question’s maximum mark from its points and weighs it by that', () => {
    const q1 = analysis.questions[0];
    expect(q1?.maxMark).toBe(2);
    // Marks 2, 1, 2, 0 (unanswered), 0 → mean 1 → facility 1/2.
    expect(q1?.facility).toBeCloseTo(0.5, 12);
    expect(q1?.intendedWeight).toBeCloseTo(2 / 3, 12);
    const reference = moodleWalk(matrix);
    expect(q1?.standardDeviation).toBeCloseTo(reference.items[0]?.sd ?? NaN, 12);
    expect(q1?.discriminationIndex).toBeCloseTo(reference.items[0]?.discrimination ?? NaN, 12);
    expect(analysis.quiz.cronbachAlpha).toBeCloseTo(reference.alpha, 12);
  });

  it('completes an item’s histograms with the attempts that did not answer it', () => {
    const item = completeItem(totals, questions[1]?.sums as AnsweredItemSums);
    expect(item.attempts).toBe(5);
    expect(item.marks).toEqual([
      { value: 0, count: 2 },
      { value: 1, count: 3 },
    ]);
    // Rests: A1 2, A2 1, A3 2 (its total), A4 0, A5 0.
    expect(item.rests).toEqual([
      { value: 0, count: 2 },
      { value: 1, count: 1 },
      { value: 2, count: 2 },
    ]);
  });
});

describe('each formula on its own', () => {
  it('takes Moodle’s median: the middle value, or the mean of the two middle ones', () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([{ value: 5, count: 1 }])).toBe(5);
    expect(
      medianOf([
        { value: 1, count: 1 },
        { value: 3, count: 1 },
      ]),
    ).toBe(2);
    expect(
      medianOf([
        { value: 4, count: 2 },
        { value: 1, count: 1 },
        { value: 10, count: 1 },
      ]),
    ).toBe(4);
  });

  it('leaves out what too few attempts cannot tell', () => {
    expect(describeTotals([])).toMatchObject({
      attempts: 0,
      mean: null,
      median: null,
      standardDeviation: null,
    });
    expect(describeTotals([{ value: 3, count: 1 }])).toMatchObject({
      mean: 3,
      standardDeviation: null,
      skewness: null,
    });
    const two = describeTotals([
      { value: 1, count: 1 },
      { value: 3, count: 1 },
    ]);
    expect(two.standardDeviation).toBeCloseTo(Math.SQRT2, 12);
    expect(two.skewness).toBeNull();
    const three = describeTotals([
      { value: 1, count: 1 },
      { value: 2, count: 1 },
      { value: 6, count: 1 },
    ]);
    // Mean 3, d = −2, −1, 3: m2 = 14/3, m3 = 18/3 = 6; k2 = 7, k3 = 9·6/2 = 27; skewness 27/7^1.5.
    expect(three.skewness).toBeCloseTo(27 / 7 ** 1.5, 12);
    expect(three.kurtosis).toBeNull();
    const flat = describeTotals([{ value: 2, count: 4 }]);
    expect(flat).toMatchObject({ standardDeviation: 0, skewness: null, kurtosis: null });
    // 0.1 · 3 / 3 is not 0.1 in floating point: a single value still has no spread.
    expect(describeTotals([{ value: 0.1, count: 3 }]).variance).toBe(0);
  });

  it('gives no alpha with one question, one attempt or totals that do not vary', () => {
    const item = itemFigures(
      completeItem([{ value: 1, count: 3 }], {
        answered: 3,
        maxMark: 1,
        sumMark: 3,
        sumMarkSquared: 3,
        sumMarkTimesTotal: 3,
        sumTotal: 3,
        marks: [{ value: 1, count: 3 }],
        rests: [{ value: 0, count: 3 }],
        totals: [{ value: 1, count: 3 }],
      }),
      3,
    );
    expect(item.discriminationIndex).toBeNull();
    expect(item.discriminativeEfficiency).toBeNull();
    expect(item.covarianceWithTotal).toBe(0);
    expect(quizFigures([{ value: 1, count: 3 }], [item]).cronbachAlpha).toBeNull();
    expect(quizFigures([{ value: 1, count: 3 }], [item, item]).cronbachAlpha).toBeNull();
    expect(quizFigures([{ value: 1, count: 1 }], [item, item]).cronbachAlpha).toBeNull();
    const analysis = analyseQuiz([{ value: 2, count: 3 }], []);
    expect(analysis.quiz.notes.join(' ')).toMatch(/at least 2 questions/);
    expect(analysis.quiz.notes.join(' ')).toMatch(/same total/);
    expect(analyseQuiz([], []).quiz.notes).toEqual(['No finished attempts with answers to analyse yet.']);
  });

  it('pairs sorted marks with sorted rests for the maximum covariance', () => {
    // Marks 0, 0, 1 and rests 5, 1, 3 sorted: 0·1 + 0·3 + 1·5 = 5.
    expect(
      sortedPairSum(
        [
          { value: 0, count: 2 },
          { value: 1, count: 1 },
        ],
        [
          { value: 5, count: 1 },
          { value: 1, count: 1 },
          { value: 3, count: 1 },
        ],
      ),
    ).toBe(5);
  });

  it('weighs questions by their maximum (intended) and their spread (effective)', () => {
    expect(intendedWeight(2, 8)).toBe(0.25);
    expect(intendedWeight(1, 0)).toBeNull();
    const figures = (covarianceWithTotal: number | null) => ({
      attempts: 5,
      maxMark: 1,
      meanMark: 0.5,
      facility: 0.5,
      markVariance: 0.25,
      standardDeviation: 0.5,
      covarianceWithTotal,
      discriminationIndex: null,
      discriminativeEfficiency: null,
    });
    expect(effectiveWeights([figures(4), figures(1), figures(-1), figures(null)])).toEqual([
      2 / 3,
      1 / 3,
      null,
      null,
    ]);
    expect(effectiveWeights([figures(0)])).toEqual([null]);
  });

  it('computes the point-biserial as Pearson’s r of choosing and the rest score', () => {
    const rests = [4, 2, 3, 0, 1, 5];
    const chose = [1, 0, 1, 0, 0, 1];
    const rest = {
      attempts: 6,
      sumRest: rests.reduce((a, b) => a + b, 0),
      sumRestSquared: rests.reduce((a, b) => a + b * b, 0),
    };
    const sumRest = rests.reduce((sum, value, i) => sum + value * (chose[i] ?? 0), 0);
    expect(pointBiserial(rest, { count: 3, sumRest })).toBeCloseTo(pearson(chose, rests), 12);
    expect(pointBiserial(rest, { count: 0, sumRest: 0 })).toBeNull();
    expect(pointBiserial(rest, { count: 6, sumRest: rest.sumRest })).toBeNull();
    expect(
      pointBiserial({ attempts: 3, sumRest: 6, sumRestSquared: 12 }, { count: 1, sumRest: 2 }),
    ).toBeNull();
  });
});

describe('random guess score', () => {
  const seen = (answer: string, isCorrect: boolean, count = 10) => ({ answer, isCorrect, count });

  it('is 1/2 for true/false answers', () => {
    expect(inferRandomGuess([seen('true', true), seen('False', false)], 2, 20)).toMatchObject({
      score: 0.5,
      basis: 'true_false',
    });
  });

  it('is 1/k for a single-answer choice question when enough answers show the k options', () => {
    const answers = [seen('A', false), seen('B', true), seen('C', false), seen('D', false)];
    expect(inferRandomGuess(answers, 4, 40)).toMatchObject({ score: 0.25, basis: 'choices_seen' });
    const few = inferRandomGuess(answers, 4, 12);
    expect(few.score).toBeNull();
    expect(few.note).toMatch(/too few/);
  });

  it('is left out, with the reason, when the answers show no fixed options', () => {
    const freeText = inferRandomGuess(
      [seen('Paris', true), seen('paris, france', true), seen('Lyon', false)],
      3,
      50,
    );
    expect(freeText).toMatchObject({ score: null, basis: null });
    expect(freeText.note).toMatch(/do not show a fixed set/);
    expect(inferRandomGuess([seen('A', true)], 40, 400).score).toBeNull();
  });
});

describe('flags', () => {
  const base = { attempts: 40, facility: 0.6, discriminationIndex: 0.4, randomGuessScore: null, options: [] };
  const kinds = (input: Parameters<typeof flagQuestion>[0]) => flagQuestion(input).map((flag) => flag.kind);

  it('raises none for a sound question or too few attempts', () => {
    expect(kinds(base)).toEqual([]);
    expect(kinds({ ...base, attempts: 9, facility: 0.99 })).toEqual([]);
  });

  it('flags too easy and too hard questions at the thresholds', () => {
    expect(kinds({ ...base, facility: 0.9 })).toEqual(['too_easy']);
    expect(kinds({ ...base, facility: 0.89 })).toEqual([]);
    expect(kinds({ ...base, facility: 0.19 })).toEqual(['too_hard']);
    const guess = flagQuestion({ ...base, facility: 0.1, randomGuessScore: 0.25 })[0];
    expect(guess?.reason).toMatch(/no better than guessing \(25 %\)/);
  });

  it('flags weak and negative discrimination', () => {
    expect(kinds({ ...base, discriminationIndex: 0.19 })).toEqual(['weak_discrimination']);
    expect(kinds({ ...base, discriminationIndex: 0.2 })).toEqual([]);
    expect(kinds({ ...base, discriminationIndex: -0.05 })).toEqual(['negative_discrimination']);
  });

  it('suspects the answer key when a wrong answer correlates positively and the question negatively', () => {
    const options = [
      { answer: 'A', isAnswered: true, isCorrect: true, pointBiserial: -0.3 },
      { answer: 'C', isAnswered: true, isCorrect: false, pointBiserial: 0.35 },
      { answer: null, isAnswered: false, isCorrect: false, pointBiserial: 0.5 },
    ];
    const flags = flagQuestion({ ...base, discriminationIndex: -0.3, options });
    expect(flags.map((flag) => flag.kind)).toEqual(['answer_key', 'negative_discrimination']);
    expect(flags[0]?.reason).toContain('“C”');
    expect(flags[0]?.reason).toContain('0.35');
    expect(formatCoefficient(-0.3)).toBe('−0.30');
  });
});

describe('sums against Moodle’s walk on random matrices', () => {
  const cell = fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 5,
      arbitrary: fc.record({ mark: fc.constantFrom(0, 0.5, 1, 2), answer: fc.constantFrom('A', 'B', 'C') }),
    },
  );
  const matrix = fc
    .integer({ min: 2, max: 4 })
    .chain((width) =>
      fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 4, maxLength: 30 }),
    );

  it('gives the same facility, sd, discrimination, efficiency, weights, alpha and point-biserials', () => {
    fc.assert(
      fc.property(matrix, (rows) => {
        const { totals, questions } = sumsOf(rows);
        const analysis = analyseQuiz(totals, questions);
        const reference = moodleWalk(rows);
        const close = (actual: number | null | undefined, expected: number | null | undefined) => {
          if (expected === null || expected === undefined || !Number.isFinite(expected)) return;
          expect(actual).not.toBeNull();
          expect(Math.abs((actual ?? NaN) - expected)).toBeLessThan(1e-8);
        };
        analysis.questions.forEach((question, j) => {
          const item = reference.items[j];
          close(question.facility, item?.facility);
          close(question.standardDeviation, item?.sd);
          close(question.discriminationIndex, item?.discrimination);
          close(question.discriminativeEfficiency, item?.efficiency);
          for (const option of question.options) {
            if (!option.isAnswered || option.count === rows.length) continue;
            const chose = rows.map((row) => (row[j] && row[j].answer === option.answer ? 1 : 0));
            const rests = item?.rest ?? [];
            const variance = rests.reduce((sum, r) => sum + (r - rests[0]!) ** 2, 0);
            if (variance === 0) continue;
            close(option.pointBiserial, pearson(chose, rests));
          }
        });
        if (reference.variance > 1e-9) close(analysis.quiz.cronbachAlpha, Math.min(1, reference.alpha));
        const mean = reference.totals.reduce((a, b) => a + b, 0) / rows.length;
        close(analysis.quiz.mean, mean);
        close(analysis.quiz.standardDeviation, Math.sqrt(reference.variance));
      }),
      { numRuns: 300 },
    );
  });
});
