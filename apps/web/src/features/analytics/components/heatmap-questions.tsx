import type { HeatmapQuestionCell, HeatmapQuestionsResponse } from '@courselens/contracts';
import { useMemo } from 'react';

import { HeatGrid, type HeatGridCell, type HeatGridRow } from '@/components/charts';

export const RATE_LEGEND = [
  { label: '0–19%', intensity: 0.1 },
  { label: '20–39%', intensity: 0.3 },
  { label: '40–59%', intensity: 0.5 },
  { label: '60–79%', intensity: 0.7 },
  { label: '80–100%', intensity: 0.9 },
] as const;

const percent = (value: number) => `${Math.round(value * 100)}%`;

export function slideLabel(slide: number | null): string {
  return slide === null ? 'No slide' : `Slide ${slide}`;
}

/** The words of one question's cell: what a screen reader reads and the hover shows. */
export function questionCellLabel(cell: HeatmapQuestionCell): string {
  const where = `${slideLabel(cell.slideNumber)}, question ${cell.position} (${cell.label})`;
  if (cell.correctRate === null) return `${where}: no graded answers in the period`;
  const interval =
    cell.low !== null && cell.high !== null
      ? `, 95% interval ${percent(cell.low)} to ${percent(cell.high)}`
      : '';
  const few = cell.isTooFew ? '; too few responses to trust the colour' : '';
  return `${where}: ${percent(cell.correctRate)} correct, ${cell.correct} of ${cell.learners} learners${interval}${few}`;
}

export type HeatmapQuestionsProps = { data: HeatmapQuestionsResponse };

/**
 * Slides × questions: each slide a row, its questions in order as columns,
 * coloured by the share of learners whose last answer was right; cells on
 * too few learners are hatched and starred.
 */
export function HeatmapQuestions({ data }: HeatmapQuestionsProps) {
  const { columns, rows, table } = useMemo(() => {
    const columns = Array.from({ length: data.positions }, (_, index) => ({
      key: String(index + 1),
      label: `Q${index + 1}`,
      title: `Question ${index + 1} of the slide`,
    }));
    const bySlide = new Map<number | null, HeatmapQuestionCell[]>();
    for (const cell of data.cells)
      bySlide.set(cell.slideNumber, [...(bySlide.get(cell.slideNumber) ?? []), cell]);
    const rows: HeatGridRow[] = data.slides.map((slide) => {
      const cells: (HeatGridCell | null)[] = columns.map(() => null);
      for (const cell of bySlide.get(slide) ?? []) {
        cells[cell.position - 1] = {
          intensity: cell.correctRate,
          text: cell.correctRate === null ? '–' : percent(cell.correctRate),
          label: questionCellLabel(cell),
          isMarked: cell.isTooFew && cell.correctRate !== null,
        };
      }
      return { key: String(slide), label: slideLabel(slide), cells };
    });
    const table = {
      columns: [
        'Question',
        'Slide',
        'Correct rate',
        'Correct',
        'Learners',
        'Responses',
        '95% interval',
        'Too few',
      ],
      rows: data.cells.map((cell) => [
        cell.label,
        slideLabel(cell.slideNumber),
        cell.correctRate === null ? null : percent(cell.correctRate),
        cell.correct,
        cell.learners,
        cell.responses,
        cell.low === null || cell.high === null ? null : `${percent(cell.low)}–${percent(cell.high)}`,
        cell.isTooFew ? 'Yes' : 'No',
      ]),
    };
    return { columns, rows, table };
  }, [data]);

  const { minResponses, maxIntervalWidth } = data.thresholds;
  return (
    <HeatGrid
      title="Questions by slide"
      description={
        <>
          Share of learners whose last answer in the period was right. Starred, hatched cells rest on fewer
          than {minResponses} learners or have a 95% Wilson interval wider than{' '}
          {Math.round(maxIntervalWidth * 100)} points: their colour may be off by more than one band.
        </>
      }
      headingLevel="h2"
      rowHeader="Slide"
      columns={columns}
      rows={rows}
      scale="diverging"
      legend={RATE_LEGEND}
      markLabel={`Too few responses (under ${minResponses} learners or interval over ${Math.round(maxIntervalWidth * 100)} points)`}
      table={table}
      emptyText="This course has no questions yet. They appear once learners answer them."
    />
  );
}
