import type { QuestionFlagKind, QuestionStatistics } from '@courselens/contracts';

/** Display formats of the question analysis (Moodle prints these as percentages with decimals). */

const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const markFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * A real minus sign before a negative figure, as the coefficients beside it
 * have (Intl writes a hyphen), and none before one that rounds to zero.
 */
function signed(value: number, magnitude: string): string {
  return value < 0 && /[1-9]/.test(magnitude) ? `−${magnitude}` : magnitude;
}

/** A fraction as "62.5%" (an efficiency can be negative: "−117.4%"), or "—". */
export function formatShare(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return signed(value, percentFormat.format(Math.abs(value)));
}

/** A coefficient with two decimals and a real minus sign ("−0.49"), or "—". */
export function formatCoefficient(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return signed(value, Math.abs(value).toFixed(2));
}

/** Marks with up to two decimals, or "—". */
export function formatMarks(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : markFormat.format(value);
}

/** Where the question sits in the course: "Slide 3 · Q1", or its interaction id when the course sent no numbers. */
export function questionPosition(
  question: Pick<QuestionStatistics, 'slideNumber' | 'questionNumber'>,
): string {
  const parts: string[] = [];
  if (question.slideNumber !== null) parts.push(`Slide ${question.slideNumber}`);
  if (question.questionNumber !== null) parts.push(`Q${question.questionNumber}`);
  return parts.length > 0 ? parts.join(' · ') : '—';
}

/** How much a flag should worry an author: the table's "flags" sort adds these up. */
export const FLAG_WEIGHT: Record<QuestionFlagKind, number> = {
  answer_key: 16,
  negative_discrimination: 8,
  too_hard: 4,
  weak_discrimination: 2,
  too_easy: 1,
};

export function flagScore(question: Pick<QuestionStatistics, 'flags'>): number {
  return question.flags.reduce((sum, flag) => sum + FLAG_WEIGHT[flag.kind], 0);
}
