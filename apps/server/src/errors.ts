import type { ErrorCode, ErrorIssue } from '@courselens/contracts';

const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  METHOD_NOT_ALLOWED: 405,
  PLAN_LIMIT_REACHED: 402,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/**
 * A failure a service expects and can explain to a person. The error handler
 * turns it into `{ error: message, code }` with the status that belongs to the
 * code; anything else thrown becomes a 500 whose details stay in the log.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly issues: ErrorIssue[] | undefined;

  constructor(code: ErrorCode, message: string, issues?: ErrorIssue[]) {
    super(message);
    this.code = code;
    this.issues = issues;
  }

  get statusCode(): number {
    return statusByCode[this.code];
  }
}

export function statusForCode(code: ErrorCode): number {
  return statusByCode[code];
}
