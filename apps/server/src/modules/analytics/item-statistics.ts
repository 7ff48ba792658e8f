import {
  ITEM_ANALYSIS_THRESHOLDS,
  type AnswerOption,
  type QuestionFlag,
  type RandomGuessBasis,
} from '@courselens/contracts';

// Moodle's quiz statistics (mod/quiz/report/statistics/classes/calculator.php
// for the quiz, question/classes/statistics/questions/calculator.php for the
// questions; see also docs.moodle.org/dev/Quiz_statistics_calculations),
// computed from what SQL can sum over 100 000 attempts: counts, sums, sums of
// squares and cross-products, and histograms (value → how many attempts) of
// the marks, the totals and the rests. Moodle walks the attempts one by one;
// these formulas are the same quantities written with those sums, and
// `item-statistics.test.ts` checks them against a step-by-step walk.
//
// Every figure Moodle prints as a percentage is returned as a fraction here.

/** A histogram bin: `count` attempts had `value`. */
export type ValueCount = { value: number; count: number };

/**
 * What SQL sums per question over the analysed attempts that ANSWERED it
 * (mark x, the attempt's total t, its rest r = t − x). The attempts that did
 * not answer it score 0 and are filled in by `completeItem`.
 */
export type AnsweredItemSums = {
  answered: number;
  maxMark: number;
  sumMark: number;
  sumMarkSquared: number;
  sumMarkTimesTotal: number;
  sumTotal: number;
  /** Histograms over the answering attempts: of x, of r = t − x, and of t. */
  marks: readonly ValueCount[];
  rests: readonly ValueCount[];
  totals: readonly ValueCount[];
};

/** The same sums over every analysed attempt (unanswered ones scoring 0). */
export type ItemSums = {
  attempts: number;
  maxMark: number;
  sumMark: number;
  sumMarkSquared: number;
  sumMarkTimesTotal: number;
  marks: ValueCount[];
  rests: ValueCount[];
};

/** Relative size under which a variance or covariance computed from sums is rounding noise, not spread. */
const RELATIVE_EPSILON = 1e-10;

/** Histogram sorted by value with equal values merged and empty bins dropped. */
export function normalizeHistogram(bins: readonly ValueCount[]): ValueCount[] {
  const byValue = new Map<number, number>();
  for (const bin of bins) byValue.set(bin.value, (byValue.get(bin.value) ?? 0) + bin.count);
  return [...byValue.entries()]
    .filter(([, count]) => count > 0)
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => a.value - b.value);
}

function countOf(bins: readonly ValueCount[]): number {
  return bins.reduce((sum, bin) => sum + bin.count, 0);
}

function sumOf(bins: readonly ValueCount[]): number {
  return bins.reduce((sum, bin) => sum + bin.value * bin.count, 0);
}

/** Σ count · (value − centre)^power: Moodle's "sum of powers of difference to mean". */
function sumOfPowers(bins: readonly ValueCount[], centre: number, power: number): number {
  // One value means no spread at all, whatever rounding made of the mean (0.1 · 3 / 3 ≠ 0.1).
  if (bins.filter((bin) => bin.count > 0).length <= 1) return 0;
  return bins.reduce((sum, bin) => sum + bin.count * (bin.value - centre) ** power, 0);
}

/**
 * Adds the attempts that did not answer a question (mark 0, rest = their
 * total) to its sums: their totals are every attempt's totals minus the
 * answering attempts' totals.
 */
export function completeItem(allTotals: readonly ValueCount[], answered: AnsweredItemSums): ItemSums {
  const attempts = countOf(allTotals);
  const unanswered = attempts - answered.answered;
  const answeredTotals = new Map<number, number>();
  for (const bin of answered.totals)
    answeredTotals.set(bin.value, (answeredTotals.get(bin.value) ?? 0) + bin.count);
  const unansweredRests = allTotals.map((bin) => ({
    value: bin.value,
    count: Math.max(0, bin.count - (answeredTotals.get(bin.value) ?? 0)),
  }));
  return {
    attempts,
    maxMark: answered.maxMark,
    sumMark: answered.sumMark,
    sumMarkSquared: answered.sumMarkSquared,
    sumMarkTimesTotal: answered.sumMarkTimesTotal,
    marks: normalizeHistogram([...answered.marks, { value: 0, count: unanswered }]),
    rests: normalizeHistogram([...answered.rests, ...unansweredRests]),
  };
}

/** Moodle's median: the middle total, or the mean of the two middle ones. */
export function medianOf(bins: readonly ValueCount[]): number | null {
  const sorted = normalizeHistogram(bins);
  const n = countOf(sorted);
  if (n === 0) return null;
  const at = (index: number) => {
    let seen = 0;
    for (const bin of sorted) {
      seen += bin.count;
      if (index < seen) return bin.value;
    }
    return sorted[sorted.length - 1]?.value ?? 0;
  };
  return n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

export type TotalsDescription = {
  attempts: number;
  mean: number | null;
  median: number | null;
  /** Sample variance (n − 1), Moodle's k2. */
  variance: number | null;
  standardDeviation: number | null;
  skewness: number | null;
  kurtosis: number | null;
};

/**
 * Count, mean, median, standard deviation (n − 1), skewness and excess
 * kurtosis of the attempts' totals, with Moodle's estimators:
 * m_k = Σ(t − mean)^k / s, k2 = s·m2/(s−1), k3 = s²·m3/((s−1)(s−2)),
 * k4 = s²·((s+1)·m4 − 3(s−1)·m2²)/((s−1)(s−2)(s−3)); skewness = k3/k2^1.5
 * (needs 3 attempts), kurtosis = k4/k2² (needs 4), both undefined when k2 = 0.
 */
export function describeTotals(totals: readonly ValueCount[]): TotalsDescription {
  const bins = normalizeHistogram(totals);
  const s = countOf(bins);
  const empty = {
    attempts: s,
    mean: null,
    median: null,
    variance: null,
    standardDeviation: null,
    skewness: null,
    kurtosis: null,
  };
  if (s === 0) return empty;
  const mean = sumOf(bins) / s;
  const median = medianOf(bins);
  if (s < 2) return { ...empty, mean, median };
  const power2 = sumOfPowers(bins, mean, 2);
  const variance = power2 / (s - 1);
  const standardDeviation = Math.sqrt(variance);
  let skewness: number | null = null;
  let kurtosis: number | null = null;
  if (s > 2 && variance > 0) {
    const m2 = power2 / s;
    const m3 = sumOfPowers(bins, mean, 3) / s;
    const m4 = sumOfPowers(bins, mean, 4) / s;
    const k2 = (s * m2) / (s - 1);
    const k3 = (s * s * m3) / ((s - 1) * (s - 2));
    skewness = k3 / k2 ** 1.5;
    if (s > 3) {
      const k4 = (s * s * ((s + 1) * m4 - 3 * (s - 1) * m2 * m2)) / ((s - 1) * (s - 2) * (s - 3));
      kurtosis = k4 / (k2 * k2);
    }
  }
  return { attempts: s, mean, median, variance, standardDeviation, skewness, kurtosis };
}

/** Sum over the attempts of x_(i) · r_(i), both sorted ascending on their own (Moodle's "covariance max" pairing). */
export function sortedPairSum(xs: readonly ValueCount[], rs: readonly ValueCount[]): number {
  const a = normalizeHistogram(xs).map((bin) => ({ ...bin }));
  const b = normalizeHistogram(rs).map((bin) => ({ ...bin }));
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.length && j < b.length) {
    const left = a[i] as ValueCount;
    const right = b[j] as ValueCount;
    const take = Math.min(left.count, right.count);
    sum += take * left.value * right.value;
    left.count -= take;
    right.count -= take;
    if (left.count === 0) i += 1;
    if (right.count === 0) j += 1;
  }
  return sum;
}

export type ItemFigures = {
  attempts: number;
  maxMark: number;
  meanMark: number | null;
  facility: number | null;
  /** Of the mark, n − 1 (Moodle's markvariance). */
  markVariance: number | null;
  /** Standard deviation over the maximum mark. */
  standardDeviation: number | null;
  /** Covariance of the mark with the attempt's total (for the effective weight). */
  covarianceWithTotal: number | null;
  discriminationIndex: number | null;
  discriminativeEfficiency: number | null;
};

/**
 * One question's figures as Moodle computes them (with s attempts, x the
 * mark, r the rest of the attempt, each over s − 1): facility = mean(x) /
 * max; sd = √var(x) / max; discrimination index = cov(x, r) / √(var(x)·var(r));
 * discriminative efficiency = cov(x, r) / cov_max(x, r), where cov_max pairs
 * the sorted marks with the sorted rests (the highest covariance these marks
 * could have); covariance with the total feeds the effective weight. Each is
 * null where Moodle's is (fewer than 2 attempts, a zero denominator).
 */
export function itemFigures(item: ItemSums, sumTotal: number): ItemFigures {
  const s = item.attempts;
  const meanMark = s > 0 ? item.sumMark / s : null;
  const facility = meanMark !== null && item.maxMark !== 0 ? meanMark / item.maxMark : null;
  const base: ItemFigures = {
    attempts: s,
    maxMark: item.maxMark,
    meanMark,
    facility,
    markVariance: null,
    standardDeviation: null,
    covarianceWithTotal: null,
    discriminationIndex: null,
    discriminativeEfficiency: null,
  };
  if (s < 2 || meanMark === null) return base;
  const meanRest = (sumTotal - item.sumMark) / s;
  // From the histograms, so an item everyone scored the same on has exactly zero variance.
  const markVariance = sumOfPowers(item.marks, meanMark, 2) / (s - 1);
  const restVariance = sumOfPowers(item.rests, meanRest, 2) / (s - 1);
  const meanTotal = sumTotal / s;
  const rawCovarianceWithTotal = (item.sumMarkTimesTotal - s * meanMark * meanTotal) / (s - 1);
  // cov(x, t) is zero for a constant x; rounding must not make it −1e−17 ("negative covariance").
  const covarianceWithTotal =
    markVariance === 0 || Math.abs(rawCovarianceWithTotal) <= RELATIVE_EPSILON * scaleOf(item, sumTotal, s)
      ? 0
      : rawCovarianceWithTotal;
  // cov(x, r) = cov(x, t − x) = cov(x, t) − var(x).
  const covariance = covarianceWithTotal - markVariance;
  const covarianceMax = (sortedPairSum(item.marks, item.rests) - s * meanMark * meanRest) / (s - 1);
  const product = markVariance * restVariance;
  return {
    ...base,
    markVariance,
    standardDeviation: item.maxMark !== 0 ? Math.sqrt(markVariance) / item.maxMark : null,
    covarianceWithTotal,
    discriminationIndex: product > 0 ? clampCorrelation(covariance / Math.sqrt(product)) : null,
    discriminativeEfficiency:
      Math.abs(covarianceMax) > RELATIVE_EPSILON * scaleOf(item, sumTotal, s)
        ? covariance / covarianceMax
        : null,
  };
}

function scaleOf(item: ItemSums, sumTotal: number, s: number): number {
  return Math.max(1, Math.abs(item.sumMarkTimesTotal / s), Math.abs((item.sumMark / s) * (sumTotal / s)));
}

function clampCorrelation(value: number): number {
  return Math.max(-1, Math.min(1, value));
}

export type QuizFigures = TotalsDescription & {
  questions: number;
  maxTotal: number;
  cronbachAlpha: number | null;
  errorRatio: number | null;
  standardError: number | null;
};

/**
 * The quiz's coefficient of internal consistency (Cronbach's alpha, which
 * is KR-20 when every question is right or wrong):
 * alpha = p/(p−1) · (1 − Σ var(x_i) / var(t)), with the variances over
 * s − 1 as Moodle's k2 and markvariance; error ratio = √(1 − alpha);
 * standard error = error ratio × sd(t). Moodle nests this under "more than
 * two attempts" only because it shares a block with the skewness; the
 * formula needs two, so it is computed from two on.
 */
export function quizFigures(totals: readonly ValueCount[], items: readonly ItemFigures[]): QuizFigures {
  const description = describeTotals(totals);
  const p = items.length;
  const maxTotal = items.reduce((sum, item) => sum + item.maxMark, 0);
  let cronbachAlpha: number | null = null;
  let errorRatio: number | null = null;
  let standardError: number | null = null;
  if (
    p > 1 &&
    description.variance !== null &&
    description.variance > 0 &&
    description.standardDeviation !== null
  ) {
    const sumOfMarkVariance = items.reduce((sum, item) => sum + (item.markVariance ?? 0), 0);
    cronbachAlpha = (p / (p - 1)) * (1 - sumOfMarkVariance / description.variance);
    // Alpha cannot exceed 1 (Cauchy–Schwarz); rounding may nudge it past.
    cronbachAlpha = Math.min(1, cronbachAlpha);
    errorRatio = Math.sqrt(1 - cronbachAlpha);
    standardError = errorRatio * description.standardDeviation;
  }
  return { ...description, questions: p, maxTotal, cronbachAlpha, errorRatio, standardError };
}

/** Intended weight: the question's maximum over the quiz's (Moodle: maxmark as a percentage of sumgrades). */
export function intendedWeight(maxMark: number, maxTotal: number): number | null {
  return maxTotal !== 0 ? maxMark / maxTotal : null;
}

/**
 * Effective weights: √cov(x_i, t) / Σ √cov(x_j, t) over the questions whose
 * covariance with the total is not negative; a question with a negative one
 * has none (Moodle prints "negative covariance").
 */
export function effectiveWeights(items: readonly ItemFigures[]): (number | null)[] {
  const roots = items.map((item) =>
    item.covarianceWithTotal !== null && item.covarianceWithTotal >= 0
      ? Math.sqrt(item.covarianceWithTotal)
      : null,
  );
  const sum = roots.reduce<number>((total, root) => total + (root ?? 0), 0);
  return roots.map((root) => (root !== null && sum > 0 ? root / sum : null));
}

/** Over every analysed attempt: the rest score's count, sum and sum of squares. */
export type RestSums = { attempts: number; sumRest: number; sumRestSquared: number };

/** The rest sums of a question from its completed sums and the quiz's sum of totals. */
export function restSums(item: ItemSums): RestSums {
  return {
    attempts: item.attempts,
    sumRest: sumOf(item.rests),
    sumRestSquared: item.rests.reduce((sum, bin) => sum + bin.count * bin.value * bin.value, 0),
  };
}

/**
 * Point-biserial correlation of choosing an option (1 if the attempt chose
 * it, else 0) with the rest score: Pearson's r of the two, from the number
 * of attempts that chose it and the sum of their rests. Null when nobody or
 * everybody chose it, or the rests do not vary.
 */
export function pointBiserial(rest: RestSums, chosen: { count: number; sumRest: number }): number | null {
  const n = rest.attempts;
  const k = chosen.count;
  if (n < 2 || k <= 0 || k >= n) return null;
  const meanRest = rest.sumRest / n;
  const restVariance = (rest.sumRestSquared - n * meanRest * meanRest) / (n - 1);
  if (restVariance <= RELATIVE_EPSILON * Math.max(1, rest.sumRestSquared / n)) return null;
  const chosenVariance = (k * (n - k)) / (n * (n - 1));
  const covariance = (chosen.sumRest - k * meanRest) / (n - 1);
  return clampCorrelation(covariance / Math.sqrt(chosenVariance * restVariance));
}

/** Answers seen for a question (every distinct one, or the most frequent when there are many). */
export type SeenAnswer = { answer: string | null; isCorrect: boolean | null; count: number };

/** Distinct answers at most for a question to pass as a choice question (more looks like free text). */
const MAX_CHOICE_OPTIONS = 8;
/**
 * Answers needed before the choices seen stand for all the choices: with 30
 * answers an option that one learner in ten would pick is missed with
 * probability 0.9^30 ≈ 4 %.
 */
const MIN_ANSWERS_TO_SEE_CHOICES = 30;

export type RandomGuess = { score: number | null; basis: RandomGuessBasis | null; note: string };

const TRUE_FALSE = new Set(['true', 'false']);

/**
 * The facility a learner guessing at random would reach, where the answers
 * show the question type: 1/2 for true/false answers; 1/k for a choice
 * question with one right answer among the k distinct answers seen (enough
 * answers, few distinct values, exactly one graded right). Otherwise null:
 * the answers do not tell the options, and an invented score would mislead.
 */
export function inferRandomGuess(
  answers: readonly SeenAnswer[],
  distinctAnswers: number,
  answered: number,
): RandomGuess {
  const given = answers.filter((answer): answer is SeenAnswer & { answer: string } => answer.answer !== null);
  if (
    given.length > 0 &&
    given.length === distinctAnswers &&
    given.every((a) => TRUE_FALSE.has(a.answer.trim().toLowerCase()))
  ) {
    return {
      score: 0.5,
      basis: 'true_false',
      note: 'Random guess score 50 %: the answers are true or false.',
    };
  }
  const right = given.filter((answer) => answer.isCorrect === true);
  const isSingleChoice =
    given.length === distinctAnswers &&
    distinctAnswers >= 2 &&
    distinctAnswers <= MAX_CHOICE_OPTIONS &&
    right.length === 1 &&
    given.every((answer) => answer.isCorrect !== null);
  if (isSingleChoice && answered >= MIN_ANSWERS_TO_SEE_CHOICES) {
    return {
      score: 1 / distinctAnswers,
      basis: 'choices_seen',
      note: `Random guess score 1/${distinctAnswers}: assumes the ${distinctAnswers} answers seen are all the options, one of them right (an option nobody chose would lower it).`,
    };
  }
  if (isSingleChoice) {
    return {
      score: null,
      basis: null,
      note: `No random guess score: ${answered} answers are too few to be sure every option has been seen (${MIN_ANSWERS_TO_SEE_CHOICES} needed).`,
    };
  }
  return {
    score: null,
    basis: null,
    note: 'No random guess score: the answers do not show a fixed set of options with one right answer (free text, numbers or several right answers).',
  };
}

const percent = (ratio: number) => `${Math.round(ratio * 100)} %`;
/** A coefficient with two decimals and a real minus sign. */
export const formatCoefficient = (value: number) =>
  value < 0 ? `−${(-value).toFixed(2)}` : value.toFixed(2);

/**
 * The flags of a question with their reasons, from its facility,
 * discrimination and options (thresholds in `ITEM_ANALYSIS_THRESHOLDS`).
 * "Answer key may be wrong": the keyed answer separates learners the wrong
 * way (negative discrimination) while an answer marked wrong is chosen by
 * the learners who did better on the rest of the quiz.
 */
export function flagQuestion(input: {
  attempts: number;
  facility: number | null;
  discriminationIndex: number | null;
  randomGuessScore: number | null;
  options: readonly Pick<AnswerOption, 'answer' | 'isAnswered' | 'isCorrect' | 'pointBiserial'>[];
}): QuestionFlag[] {
  const t = ITEM_ANALYSIS_THRESHOLDS;
  if (input.attempts < t.minAttemptsForFlags) return [];
  const flags: QuestionFlag[] = [];
  const d = input.discriminationIndex;
  if (d !== null && d < 0) {
    const suspect = input.options
      .filter((option) => option.isAnswered && option.isCorrect === false && (option.pointBiserial ?? 0) > 0)
      .sort((a, b) => (b.pointBiserial ?? 0) - (a.pointBiserial ?? 0))[0];
    if (suspect && suspect.pointBiserial !== null) {
      flags.push({
        kind: 'answer_key',
        reason: `Learners who did better on the rest of the quiz chose “${suspect.answer ?? '(no answer text)'}”, marked wrong (point-biserial ${formatCoefficient(suspect.pointBiserial)}), while the question’s discrimination is ${formatCoefficient(d)}: check the answer key`,
      });
    }
    flags.push({
      kind: 'negative_discrimination',
      reason: `Discrimination ${formatCoefficient(d)}: learners who did worse on the rest of the quiz did better on this question`,
    });
  } else if (d !== null && d < t.weakDiscrimination) {
    flags.push({
      kind: 'weak_discrimination',
      reason: `Discrimination ${formatCoefficient(d)} is below ${t.weakDiscrimination.toFixed(2)}: the question barely separates stronger from weaker learners`,
    });
  }
  const f = input.facility;
  if (f !== null && f < t.tooHardFacility) {
    const guess =
      input.randomGuessScore !== null && f <= input.randomGuessScore
        ? `, no better than guessing (${percent(input.randomGuessScore)})`
        : '';
    flags.push({
      kind: 'too_hard',
      reason: `Facility ${percent(f)} is below ${percent(t.tooHardFacility)}${guess}: check the wording, the answer key and whether the course teaches it`,
    });
  } else if (f !== null && f >= t.tooEasyFacility) {
    flags.push({
      kind: 'too_easy',
      reason: `Facility ${percent(f)} is ${percent(t.tooEasyFacility)} or more: almost everyone gets it right, so it tells learners apart little`,
    });
  }
  return flags;
}

/** Why quiz figures are missing, in words for the screen. */
export function quizNotes(figures: QuizFigures): string[] {
  const notes: string[] = [];
  const s = figures.attempts;
  if (s === 0) return ['No finished attempts with answers to analyse yet.'];
  if (s < 2) notes.push('One attempt: the standard deviation and Cronbach’s alpha need at least 2.');
  else if (s < 4) notes.push(`${s} attempts: skewness needs 3 and kurtosis 4.`);
  if (figures.questions < 2) notes.push('Cronbach’s alpha needs at least 2 questions.');
  if (s >= 2 && figures.variance === 0) {
    notes.push('Every attempt scored the same total, so alpha, skewness and kurtosis are undefined.');
  }
  if (figures.cronbachAlpha !== null && figures.cronbachAlpha < 0) {
    notes.push(
      'Alpha is negative: the questions’ marks tend to move against each other; look at the flagged questions.',
    );
  }
  return notes;
}

/** Why a question's figures are missing, in words for the screen. */
export function itemNotes(figures: ItemFigures, effectiveWeight: number | null): string[] {
  const notes: string[] = [];
  if (figures.attempts < 2) {
    notes.push('The standard deviation and discrimination need at least 2 attempts.');
    return notes;
  }
  if (figures.markVariance === 0) {
    notes.push(
      'Every attempt scored the same on this question, so it cannot separate learners (no discrimination).',
    );
  } else if (figures.discriminationIndex === null) {
    notes.push('The rest of the quiz scored the same in every attempt, so discrimination is undefined.');
  }
  if (effectiveWeight === null && figures.covarianceWithTotal !== null && figures.covarianceWithTotal < 0) {
    notes.push(
      'Negative covariance with the total: no effective weight (Moodle shows “negative covariance”).',
    );
  }
  if (figures.attempts < ITEM_ANALYSIS_THRESHOLDS.minAttemptsForFlags) {
    notes.push(`Flags need at least ${ITEM_ANALYSIS_THRESHOLDS.minAttemptsForFlags} attempts.`);
  }
  return notes;
}

/** What SQL sums per answer of a question (over the answering attempts). */
export type OptionSums = {
  /** Null when the course sent the answer without its text. */
  answer: string | null;
  count: number;
  /** Σ of the rest scores of the attempts that gave it. */
  sumRest: number;
  sumMark: number;
  /** Of those answers, how many the course graded (points or right/wrong). */
  graded: number;
};

export type QuestionInput = {
  sums: AnsweredItemSums;
  /** The most frequent answers (all of them when there are few). */
  options: readonly OptionSums[];
  /** Distinct answers given, including those left out of `options`. */
  distinctAnswers: number;
};

export type AnalysedQuestion = ItemFigures & {
  answered: number;
  intendedWeight: number | null;
  effectiveWeight: number | null;
  randomGuessScore: number | null;
  randomGuessBasis: RandomGuessBasis | null;
  flags: QuestionFlag[];
  notes: string[];
  options: AnswerOption[];
  otherOptions: { distinct: number; count: number };
};

export type QuizAnalysis = {
  quiz: QuizFigures & { notes: string[] };
  questions: AnalysedQuestion[];
};

/**
 * Everything the screen shows about a quiz, from the attempts' totals and
 * each question's sums over the attempts that answered it.
 */
export function analyseQuiz(
  totals: readonly ValueCount[],
  questions: readonly QuestionInput[],
): QuizAnalysis {
  const allTotals = normalizeHistogram(totals);
  const sumTotal = sumOf(allTotals);
  const completed = questions.map((question) => completeItem(allTotals, question.sums));
  const figures = completed.map((item) => itemFigures(item, sumTotal));
  const quiz = quizFigures(allTotals, figures);
  const weights = effectiveWeights(figures);
  const analysed = questions.map((question, index): AnalysedQuestion => {
    const item = completed[index] as ItemSums;
    const figure = figures[index] as ItemFigures;
    const effectiveWeight = weights[index] ?? null;
    const options = answerOptions(question, item, sumTotal);
    const shown = options.reduce((sum, option) => sum + (option.isAnswered ? option.count : 0), 0);
    const guess = inferRandomGuess(
      question.options.map((option) => ({
        answer: option.answer,
        count: option.count,
        isCorrect: correctness(option, question.sums.maxMark),
      })),
      question.distinctAnswers,
      question.sums.answered,
    );
    return {
      ...figure,
      answered: question.sums.answered,
      intendedWeight: intendedWeight(item.maxMark, quiz.maxTotal),
      effectiveWeight,
      randomGuessScore: guess.score,
      randomGuessBasis: guess.basis,
      flags: flagQuestion({
        attempts: figure.attempts,
        facility: figure.facility,
        discriminationIndex: figure.discriminationIndex,
        randomGuessScore: guess.score,
        options,
      }),
      notes: [...itemNotes(figure, effectiveWeight), guess.note],
      options,
      otherOptions: {
        distinct: Math.max(0, question.distinctAnswers - question.options.length),
        count: Math.max(0, question.sums.answered - shown),
      },
    };
  });
  return { quiz: { ...quiz, notes: quizNotes(quiz) }, questions: analysed };
}

/** Right when its answers earned at least half the question's maximum on average; null when never graded. */
function correctness(option: OptionSums, maxMark: number): boolean | null {
  if (option.graded === 0 || option.count === 0) return null;
  return option.sumMark / option.count >= maxMark / 2;
}

/**
 * The options with their share of the attempts and point-biserial with the
 * rest score, most chosen first; the attempts that did not answer are an
 * option of their own (answer null) whose rests are the totals not answered.
 */
function answerOptions(question: QuestionInput, item: ItemSums, sumTotal: number): AnswerOption[] {
  const rest = restSums(item);
  const s = item.attempts;
  const share = (count: number) => (s > 0 ? count / s : 0);
  const given = question.options.map((option) => ({
    answer: option.answer,
    isAnswered: true,
    isCorrect: correctness(option, question.sums.maxMark),
    count: option.count,
    share: share(option.count),
    pointBiserial: pointBiserial(rest, option),
  }));
  const unanswered = s - question.sums.answered;
  if (unanswered > 0) {
    given.push({
      answer: null,
      isAnswered: false,
      isCorrect: false,
      count: unanswered,
      share: share(unanswered),
      pointBiserial: pointBiserial(rest, { count: unanswered, sumRest: sumTotal - question.sums.sumTotal }),
    });
  }
  return given.sort((a, b) => b.count - a.count);
}
