import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

import { isApiError } from '@/lib/api-client';
import { issuePathParts } from '@/lib/form-errors';
import { toast } from '@/lib/toast';

export const UNEXPECTED_ERROR = 'Something went wrong. Please try again.';

export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  return UNEXPECTED_ERROR;
}

/**
 * Puts the server's field issues under their fields and the rest in a toast.
 * `fieldFor` maps a server message that belongs to one field (such as a
 * subdomain rule) to that field.
 */
export function reportServerError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  fieldFor?: (message: string) => Path<T> | null,
): void {
  const message = errorMessage(error);
  if (isApiError(error)) {
    let placed = false;
    for (const issue of error.issues) {
      const [head] = issuePathParts(issue.path);
      const field = fields.find((candidate) => candidate === head);
      if (field) {
        setError(field, { type: 'server', message: issue.message });
        placed = true;
      }
    }
    const field = fieldFor?.(message);
    if (field) {
      setError(field, { type: 'server', message });
      placed = true;
    }
    if (placed) return;
  }
  toast.error(message);
}
