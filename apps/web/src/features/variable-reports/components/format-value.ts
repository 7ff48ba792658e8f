import type { VariableDataType } from '@courselens/contracts';

import { formatDate, formatDecimal } from '@/lib/format';

/** A value as a person reads it: numbers formatted, dates as dates, booleans as True/False. */
export function formatVariableValue(
  dataType: VariableDataType,
  row: {
    value: string | null;
    valueNumber?: number | null;
    valueBoolean?: boolean | null;
    valueDate?: string | null;
  },
): string {
  if (dataType === 'number' && row.valueNumber !== null && row.valueNumber !== undefined)
    return formatDecimal(row.valueNumber);
  if (dataType === 'boolean' && row.valueBoolean !== null && row.valueBoolean !== undefined)
    return row.valueBoolean ? 'True' : 'False';
  if (dataType === 'date' && row.valueDate) return formatDate(row.valueDate);
  return row.value ?? '—';
}

export function learnerLabel(name: string | null): string {
  return name?.trim() || 'Unnamed learner';
}
