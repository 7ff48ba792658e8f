import type { ChatbotVariableType } from '@courselens/contracts';

import { formatDate, formatDecimal } from '@/lib/format';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A captured value as a person reads it: Yes/No, grouped numbers, a day
 * as a date. A date variable holds a calendar day (`2026-03-01`), read in
 * local time so no time zone moves it to the day before.
 */
export function formatCapturedValue(
  value: string | number | boolean | null | undefined,
  type?: ChatbotVariableType,
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return formatDecimal(value);
  const day = type === 'date' ? ISO_DAY.exec(value) : null;
  if (day) return formatDate(new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  return value;
}
