import { z } from 'zod';

/** Machine codes every API error carries; the HTTP status follows from the code. */
export const errorCodes = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PRECONDITION_FAILED',
  'METHOD_NOT_ALLOWED',
  'PLAN_LIMIT_REACHED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type ErrorIssue = z.infer<typeof errorIssueSchema>;

/** The one JSON error shape of the whole API. */
export const apiErrorSchema = z.object({
  error: z.string(),
  code: z.string(),
  issues: z.array(errorIssueSchema).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
