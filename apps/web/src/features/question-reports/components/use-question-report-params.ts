import { QUESTION_REPORT_SORT_KEYS } from '@courselens/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import type {
  QuestionChartParams,
  QuestionLeadersParams,
  QuestionRangeParams,
  QuestionReportParams,
} from '../api/get-question-report';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const LEADER_LIMITS = [5, 10, 25, 50, 100] as const;

/**
 * A question report's state as its URL says it: `from`/`to` for every view,
 * then each view's own. The screen and its route loader read the URL alike.
 */
export function readQuestionReportState(searchParams: URLSearchParams) {
  const day = (key: string) => {
    const value = searchParams.get(key);
    return value && DAY.test(value) ? value : undefined;
  };
  const range: QuestionRangeParams = { from: day('from'), to: day('to') };
  const page = Number(searchParams.get('page'));
  const sort = searchParams.get('sort') ?? '';
  const correct = searchParams.get('correct');
  const report: QuestionReportParams = {
    ...range,
    correct: correct === 'true' || correct === 'false' || correct === 'ungraded' ? correct : undefined,
    q: searchParams.get('q') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sort: (QUESTION_REPORT_SORT_KEYS as readonly string[]).includes(sort)
      ? (sort as QuestionReportParams['sort'])
      : 'answeredAt',
    order: searchParams.get('order') === 'asc' ? 'asc' : 'desc',
  };
  const interval = searchParams.get('interval');
  const chart: QuestionChartParams = {
    ...range,
    interval: interval === 'day' || interval === 'week' ? interval : undefined,
  };
  const top = Number(searchParams.get('top'));
  const leaders: QuestionLeadersParams = {
    ...range,
    limit: (LEADER_LIMITS as readonly number[]).includes(top) ? top : 10,
  };
  return { range, report, chart, leaders };
}

/** A question report's state in its URL (see {@link readQuestionReportState}), and how to change it. */
export function useQuestionReportParams() {
  const [searchParams, setSearchParams] = useSearchParams();

  const state = useMemo(() => readQuestionReportState(searchParams), [searchParams]);

  const update = useCallback(
    (changes: Record<string, string | number | undefined>) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  const tabSearch = useMemo(() => {
    const kept = new URLSearchParams();
    for (const key of ['from', 'to', 'token']) {
      const value = searchParams.get(key);
      if (value) kept.set(key, value);
    }
    const text = kept.toString();
    return text ? `?${text}` : '';
  }, [searchParams]);

  return { ...state, update, tabSearch };
}
