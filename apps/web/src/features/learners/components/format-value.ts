import type { LearnerVariable } from '@courselens/contracts';

import { formatDateTime, formatDecimal } from '@/lib/format';

/**
 * A variable value as a person reads it: numbers with grouping, booleans as
 * Yes/No, dates in the local time zone, text as sent. A value that does not
 * parse as its data type is shown as received rather than hidden.
 */
export function formatVariableValue(dataType: LearnerVariable['dataType'], value: string | null): string {
  if (value === null) return '—';
  switch (dataType) {
    case 'number': {
      const number = value.trim() === '' ? Number.NaN : Number(value);
      return Number.isFinite(number) ? formatDecimal(number) : value;
    }
    case 'boolean': {
      const word = value.trim().toLowerCase();
      if (word === 'true') return 'Yes';
      if (word === 'false') return 'No';
      return value;
    }
    case 'date': {
      const formatted = formatDateTime(value);
      return formatted === '—' ? value : formatted;
    }
    case 'text':
      return value;
  }
}

/** "Anna Zimmer", or the e-mail when the course never sent a name. */
export function learnerDisplayName(learner: { name: string | null; email: string }): string {
  return learner.name?.trim() || learner.email;
}

/** Share of correct answers, or null when there is none to judge. */
export function correctRate(totals: { responses: number; correctResponses: number }): number | null {
  return totals.responses === 0 ? null : totals.correctResponses / totals.responses;
}
