import {
  HEATMAP_LEARNER_SORTS,
  type HeatmapLearnerRow,
  type HeatmapLearnerSort,
  type HeatmapLearnersResponse,
  type HeatmapQuestion,
} from '@courselens/contracts';
import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import { useId, useMemo } from 'react';

import { HeatGrid, type HeatGridCell, type HeatGridRow } from '@/components/charts';
import { Button } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

const SORT_LABELS: Record<HeatmapLearnerSort, string> = {
  wrong: 'Wrong answers',
  score: 'Score',
  name: 'Name',
};

const ANSWER_LEGEND = [
  { label: '✗ Wrong', intensity: 0 },
  { label: '? Not graded', intensity: 0.5 },
  { label: '✓ Right', intensity: 1 },
] as const;

export function questionColumnLabel(question: HeatmapQuestion, index: number): string {
  return question.slideNumber === null
    ? `Q${index + 1}`
    : `S${question.slideNumber}·Q${question.questionNumber ?? index + 1}`;
}

function learnerName(row: HeatmapLearnerRow): string {
  return row.name?.trim() ? row.name : row.email;
}

function answerCell(row: HeatmapLearnerRow, question: HeatmapQuestion, column: string): HeatGridCell | null {
  const answer = row.answers.find((cell) => cell.questionId === question.questionId);
  if (!answer) return null;
  const verdict = answer.correct === null ? 'not graded' : answer.correct ? 'right' : 'wrong';
  const said = answer.answer ? `, answered “${answer.answer}”` : '';
  return {
    intensity: answer.correct === null ? 0.5 : answer.correct ? 1 : 0,
    text: answer.correct === null ? '?' : answer.correct ? '✓' : '✗',
    label: `${learnerName(row)}, ${column} (${question.label}): ${verdict}${said}`,
  };
}

export type HeatmapLearnersProps = {
  data: HeatmapLearnersResponse;
  isFetching: boolean;
  onSortChange: (sort: HeatmapLearnerSort, order: 'asc' | 'desc') => void;
  onPageChange: (page: number) => void;
};

/**
 * Learners × questions: each learner's last answer to each question in the
 * period (✓ right, ✗ wrong, ? not graded, · not answered), with their
 * wrong count and score; sortable, 50 learners a page.
 */
export function HeatmapLearners({ data, isFetching, onSortChange, onPageChange }: HeatmapLearnersProps) {
  const sortId = useId();
  const { columns, rows, table } = useMemo(() => {
    const columns = data.questions.map((question, index) => ({
      key: question.questionId,
      label: questionColumnLabel(question, index),
      title: question.label,
    }));
    const rows: HeatGridRow[] = data.items.map((row) => ({
      key: row.learnerId,
      title: `${learnerName(row)} · ${row.email}`,
      label: (
        <span className="flex flex-col">
          <span className="truncate">{learnerName(row)}</span>
          <span className="text-[11px] text-fg-muted">
            {row.wrong} wrong · {row.score === null ? 'no score' : `${Math.round(row.score * 100)}%`}
          </span>
        </span>
      ),
      cells: data.questions.map((question, index) => answerCell(row, question, columns[index]?.label ?? '')),
    }));
    const table = {
      columns: [
        'Learner',
        'E-mail',
        'Answered',
        'Right',
        'Wrong',
        'Score',
        ...columns.map((column) => column.label),
      ],
      rows: data.items.map((row) => [
        learnerName(row),
        row.email,
        row.answered,
        row.correct,
        row.wrong,
        row.score === null ? null : `${Math.round(row.score * 100)}%`,
        ...data.questions.map((question) => {
          const answer = row.answers.find((cell) => cell.questionId === question.questionId);
          if (!answer) return null;
          return answer.correct === null ? 'Not graded' : answer.correct ? 'Right' : 'Wrong';
        }),
      ]),
    };
    return { columns, rows, table };
  }, [data]);

  const isDescending = data.order === 'desc';
  const sortControls = (
    <div className="flex items-center gap-1.5">
      <label htmlFor={sortId} className="text-xs font-medium text-fg-muted">
        Sort by
      </label>
      <select
        id={sortId}
        value={data.sort}
        onChange={(event) => {
          const sort = event.target.value as HeatmapLearnerSort;
          onSortChange(sort, sort === 'name' ? 'asc' : sort === 'wrong' ? 'desc' : 'asc');
        }}
        className={cn(inputClassName, 'h-8 w-auto py-0 text-xs')}
      >
        {HEATMAP_LEARNER_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
      <Button
        variant="outline"
        size="sm"
        onClick={() => onSortChange(data.sort, isDescending ? 'asc' : 'desc')}
        aria-label={isDescending ? 'Descending: switch to ascending' : 'Ascending: switch to descending'}
        title={isDescending ? 'Descending' : 'Ascending'}
      >
        {isDescending ? <ArrowDownWideNarrow aria-hidden="true" /> : <ArrowUpNarrowWide aria-hidden="true" />}
      </Button>
    </div>
  );

  return (
    <HeatGrid
      title="Learners by question"
      description="Each learner’s last answer to each question in the period: ✓ right, ✗ wrong, ? not graded, · not answered."
      headingLevel="h2"
      rowHeader="Learner"
      columns={columns}
      rows={rows}
      scale="diverging"
      legend={ANSWER_LEGEND}
      table={table}
      actions={sortControls}
      cellClassName="min-w-10"
      className={cn(isFetching && 'opacity-70 transition-opacity')}
      emptyText="No learner answered a question of this course in the period."
      footer={
        data.total > data.pageSize || data.page > 1 ? (
          <Pagination
            page={data.page}
            pageSize={data.pageSize}
            total={data.total}
            onPageChange={onPageChange}
            noun="learners"
          />
        ) : null
      }
    />
  );
}
