import { useParams, useSearchParams } from 'react-router';

import type { ReportView } from '@/config/paths';

import {
  QuestionNotFoundMessage,
  QuestionNotSharedMessage,
  QuestionReportScreen,
} from './question-report-screen';

// The server answers 404 for anything else; deciding here saves a request that can only fail.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ReportPageProps = { view: ReportView };

/** `/questions/:id/:view`. */
export function QuestionReportPage({ view }: ReportPageProps) {
  const id = useParams().id ?? '';
  if (!UUID.test(id)) return <QuestionNotFoundMessage />;
  return <QuestionReportScreen key={id} target={{ kind: 'question', id }} view={view} />;
}

/** `/shared/questions/:id/:view?token=`: without sign-in, names only. */
export function SharedQuestionReportPage({ view }: ReportPageProps) {
  const id = useParams().id ?? '';
  const token = useSearchParams()[0].get('token') ?? '';
  if (!token || !UUID.test(id)) return <QuestionNotSharedMessage />;
  return <QuestionReportScreen key={`${id}:${token}`} target={{ kind: 'shared', id, token }} view={view} />;
}
