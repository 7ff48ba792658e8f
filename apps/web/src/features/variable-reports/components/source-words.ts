import { sourceOf, type VariableReportTarget } from '../api/report-target';

/**
 * The words a report uses for where its values come from. The API answers
 * an agent's variable in the shape of a course's (its `courses` are the
 * agents), so the screens are the same and only these words change.
 */
export type SourceWords = {
  /** A column or filter label. */
  label: 'Course' | 'Agent';
  /** The filter's choice that keeps every course or agent. */
  all: string;
  /** The report's empty state, before any value arrived. */
  noValues: string;
  /** The leaderboard's empty state, before any value arrived. */
  noLeaders: string;
};

const courseWords: SourceWords = {
  label: 'Course',
  all: 'All courses',
  noValues: 'Values appear here when a course sends this variable for a learner.',
  noLeaders: 'Learners appear here once a course sends this variable.',
};

const agentWords: SourceWords = {
  label: 'Agent',
  all: 'All agents',
  noValues: 'Values appear here when an agent captures this variable in a conversation.',
  noLeaders: 'Learners appear here once an agent captures this variable.',
};

export function sourceWordsOf(target: VariableReportTarget): SourceWords {
  return sourceOf(target) === 'chatbot' ? agentWords : courseWords;
}
