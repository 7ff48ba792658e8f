import { useParams, useSearchParams } from 'react-router';

import type { ReportView } from '@/config/paths';

import { questionReportTargetOf } from '../api/report-target';

import {
  QuestionNotFoundMessage,
  QuestionNotSharedMessage,
  QuestionReportScreen,
} from './question-report-screen';

export type ReportPageProps = { view: ReportView };

/** `/questions/:id/:view`. */
export function QuestionReportPage({ view }: ReportPageProps) {
  const target = questionReportTargetOf('question', useParams(), useSearchParams()[0]);
  if (!target) return <QuestionNotFoundMessage />;
  return <QuestionReportScreen key={target.id} target={target} view={view} />;
}

/** `/shared/questions/:id/:view?token=`: without sign-in, names only. */
export function SharedQuestionReportPage({ view }: ReportPageProps) {
  const target = questionReportTargetOf('shared', useParams(), useSearchParams()[0]);
  if (target?.kind !== 'shared') return <QuestionNotSharedMessage />;
  return <QuestionReportScreen key={`${target.id}:${target.token}`} target={target} view={view} />;
}
