import { z } from 'zod';

/**
 * The Learning Record Store's HTTP surface (`/xapi/`): its limits and the
 * messages it answers with. The statement's own validation is in `xapi.ts`.
 */

/** Most statements one `GET /xapi/statements` page holds (`limit=0` means this). */
export const XAPI_MAX_PAGE = 500;
/** Largest statements request (JSON or multipart with attachments), in bytes. */
export const XAPI_MAX_STATEMENTS_BYTES = 20 * 1_048_576;
/** Largest State / Activity Profile / Agent Profile document, in bytes. */
export const XAPI_MAX_DOCUMENT_BYTES = 1_048_576;

/** The versions `/xapi/about` lists, newest first. */
export const XAPI_ABOUT_VERSIONS = ['1.0.3', '1.0.2', '1.0.1', '1.0.0'] as const;

export const LRS_MESSAGES = {
  invalidCredentials:
    'Invalid LRS key or secret: the key is an API key’s id and the secret is the API key itself (Organization settings → API keys)',
  versionMissing: 'The X-Experience-API-Version header is required: send 1.0.3',
  versionUnsupported: (version: string) => `X-Experience-API-Version ${version} is not supported: send 1.0.3`,
  unknownParameter: (name: string) => `Unknown parameter "${name}"`,
  parameterRequired: (name: string) => `The ${name} parameter is required`,
  invalidParameter: (name: string, rule: string) => `The ${name} parameter ${rule}`,
  statementIdWithFilters:
    'statementId and voidedStatementId can only be combined with format and attachments',
  bothStatementIds: 'Send statementId or voidedStatementId, not both',
  putTakesOne: 'PUT /xapi/statements takes one statement (send a list with POST)',
  statementIdMismatch: 'The statement’s id does not match the statementId parameter',
  statementConflict: (id: string) =>
    `Statement ${id} is already stored with different content (a statement id can be used once)`,
  duplicateInBatch: (id: string) => `Statement id ${id} appears more than once in the request`,
  voidingVoiding: (id: string) => `Statement ${id} is a voiding statement and cannot be voided`,
  statementNotFound: 'Statement not found',
  activityNotFound: 'Activity not found',
  documentNotFound: 'Document not found',
  statementsContentType: 'Content-Type must be application/json or multipart/mixed',
  invalidJson: 'The body is not valid JSON',
  attachmentMissing: (sha2: string) =>
    `Attachment ${sha2} is not in the request: send the statements as multipart/mixed with a part for it, or give the attachment a fileUrl`,
  attachmentPartUnused: (sha2: string) =>
    `The request has a part (X-Experience-API-Hash ${sha2}) that no statement’s attachment names`,
  signatureContentType: 'A signature attachment must have the contentType application/octet-stream',
  invalidMore: 'The more link is not valid: start again from /xapi/statements',
  alternateSyntax:
    'An alternate request is a POST with only the method parameter in the URL and its other parameters, headers and content as a form (application/x-www-form-urlencoded)',
  alternateMethod: 'The method parameter must be GET, PUT, POST or DELETE',
  methodNotAllowed: (method: string, resource: string) => `${method} is not allowed on ${resource}`,
  ifMatchFailed: 'The document changed since you read it: If-Match does not match its ETag',
  ifNoneMatchFailed: 'The document already exists (If-None-Match)',
  concurrencyRequired:
    'The document already exists: send If-Match with its ETag to replace it, or If-None-Match: * to create it only if absent',
  mergeNeedsJson:
    'POST merges JSON objects: the stored document and the body must both be JSON objects (use PUT to replace the document)',
  documentTooLarge: `A document can hold at most ${XAPI_MAX_DOCUMENT_BYTES} bytes`,
} as const;

/** How many of the latest statements without facts `GET /api/lrs/activity` lists. */
export const LRS_RECENT_UNMAPPED = 20;

/** A statement the LRS stored that made no CourseLens data, with why (for whoever set the course up). */
export const lrsUnmappedStatementSchema = z.object({
  id: z.string(),
  stored: z.string(),
  verb: z.string(),
  /** The object's activity id, or its kind when it is not an activity. */
  object: z.string(),
  /** The actor's identifier (`mbox:mailto:…`, `account:…`), null for an anonymous group. */
  actor: z.string().nullable(),
  reason: z.string(),
});
export type LrsUnmappedStatement = z.infer<typeof lrsUnmappedStatementSchema>;

/** `GET /api/lrs/activity`: what the organization's LRS received in the last 30 days. */
export const lrsActivityResponseSchema = z.object({
  /** Statements without facts stored in the last 30 days. */
  unmapped: z.number().int(),
  lastStoredAt: z.string().nullable(),
  recentUnmapped: z.array(lrsUnmappedStatementSchema),
});
export type LrsActivityResponse = z.infer<typeof lrsActivityResponseSchema>;
