import type { ApiErrorBody as ContractApiErrorBody, ErrorIssue } from '@courselens/contracts';

/**
 * The one way the web app talks to the CourseLens API (`/api/...`).
 *
 * - Sends and reads JSON; a 204 resolves to `undefined`. A file goes as its
 *   raw bytes (`rawBody`).
 * - Any non-2xx answer throws an {@link ApiError} carrying the server's error
 *   shape `{ error, code, issues? }`, so screens show the server's message and
 *   forms can map `issues` to fields.
 * - The session token is attached as `Authorization: Bearer …` and the
 *   current organization as `X-Organization-Id`, both wired by `lib/auth.ts`
 *   through {@link configureApiClient}; an `anonymous` request carries
 *   neither (the public chat page).
 */

export const API_BASE_PATH = '/api';

export const NETWORK_ERROR_MESSAGE = 'The server could not be reached. Check your connection and try again.';

/**
 * One problem of a refused request, as the server writes it: `path` is dotted
 * and starts with the part of the request it is in (`body.variables.0.name`).
 */
export type ApiIssue = ErrorIssue;

/** The JSON error shape every server route answers with. */
export type ApiErrorBody = ContractApiErrorBody;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, or 0 when the server could not be reached at all. */
  readonly status: number;
  /** Machine-readable code from the server (`NOT_FOUND`, `VALIDATION_ERROR`...). */
  readonly code: string;
  readonly issues: readonly ApiIssue[];
  /** The parsed response body as received, for callers that need more. */
  readonly body: unknown;

  constructor(options: {
    message: string;
    status: number;
    code: string;
    issues?: readonly ApiIssue[];
    body?: unknown;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.issues = options.issues ?? [];
    this.body = options.body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type QueryValue = string | number | boolean | null | undefined;

/** Bytes sent as they are (a file), not as JSON. */
export type RawBody = Blob | ArrayBuffer | Uint8Array<ArrayBuffer>;

export type ApiRequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialized as JSON. */
  body?: unknown;
  /** Sent as it is, in place of `body`, with `contentType` (a file the server reads). */
  rawBody?: RawBody;
  /** The Content-Type of `rawBody`: by default a Blob's own type, else `application/octet-stream`. */
  contentType?: string;
  /**
   * Appended as a query string; null, undefined and empty-string entries are
   * left out (an empty filter field means no filter, and the server would
   * refuse an empty date).
   */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * No session at all: no bearer token, no organization, no cookies. For the
   * public pages a learner reaches (often framed on another origin), whose
   * calls must neither depend on nor leak whoever is signed in on this browser.
   */
  anonymous?: boolean;
  /** The message of an error answer that brings none of its own (a proxy's page, an empty body). */
  fallbackErrorMessage?: (status: number) => string | undefined;
};

type ApiClientConfig = {
  /** Returns the current session token, if any. */
  getAuthToken: () => string | null | undefined;
  /** Returns the current organization's id, sent as `X-Organization-Id`. */
  getOrganizationId: () => string | null | undefined;
  /** Called when the server answers 401 to a request that carried a token. */
  onUnauthorized: (error: ApiError) => void;
  /**
   * True while the session is being revoked: requests other than anonymous ones are refused here, unsent.
   * The page may still start some meanwhile, and the server would answer them 401.
   */
  isClosingSession: () => boolean;
};

const config: ApiClientConfig = {
  getAuthToken: () => null,
  getOrganizationId: () => null,
  onUnauthorized: () => {},
  isClosingSession: () => false,
};

/** The error of a request refused while the session is being closed. */
export const SESSION_CLOSING_CODE = 'SESSION_CLOSING';

/** Wires the session (token source, reaction to an expired session) into every request. */
export function configureApiClient(overrides: Partial<ApiClientConfig>): void {
  Object.assign(config, overrides);
}

export function buildApiUrl(path: string, query?: Record<string, QueryValue>): string {
  const normalizedPath = path.startsWith('/') ? path : `/${path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined && value !== '') search.append(key, String(value));
  }
  const queryString = search.toString();
  return `${API_BASE_PATH}${normalizedPath}${queryString ? `?${queryString}` : ''}`;
}

/**
 * Sends the request and resolves to the response when it is 2xx, unread (a
 * stream is read as it arrives); any other answer throws an {@link ApiError}.
 */
export async function apiFetch(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const { method = 'GET', query, headers = {}, signal, anonymous = false } = options;
  if (!anonymous && config.isClosingSession()) {
    throw new ApiError({ message: 'You signed out.', status: 401, code: SESSION_CLOSING_CODE });
  }
  const requestHeaders: Record<string, string> = { Accept: 'application/json', ...headers };
  const body = requestBody(options, requestHeaders);
  const token = anonymous ? null : config.getAuthToken();
  if (token) requestHeaders.Authorization = `Bearer ${token}`;
  const organizationId = anonymous ? null : config.getOrganizationId();
  if (token && organizationId && !('X-Organization-Id' in headers)) {
    requestHeaders['X-Organization-Id'] = organizationId;
  }

  let response: Response;
  try {
    response = await fetch(buildApiUrl(path, query), {
      method,
      headers: requestHeaders,
      body,
      signal,
      ...(anonymous ? { credentials: 'omit' as const } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ message: NETWORK_ERROR_MESSAGE, status: 0, code: 'NETWORK_ERROR', cause: error });
  }

  if (!response.ok) {
    const apiError = apiErrorFromBody(await readBody(response), response.status, {
      statusText: response.statusText,
      fallbackMessage: options.fallbackErrorMessage,
    });
    if (response.status === 401 && token) config.onUnauthorized(apiError);
    throw apiError;
  }
  return response;
}

/**
 * Calls `/api{path}` and resolves to the parsed JSON body typed as `T`.
 * The type is the caller's promise about the server's answer: parse it when
 * the answer is not under our control.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const response = await apiFetch(path, options);
  return (await readBody(response)) as T;
}

/** The body to send, with its Content-Type set in `headers`. */
function requestBody(options: ApiRequestOptions, headers: Record<string, string>): BodyInit | undefined {
  const { rawBody, body, contentType } = options;
  if (rawBody !== undefined) {
    headers['Content-Type'] =
      contentType ?? ((rawBody instanceof Blob && rawBody.type) || 'application/octet-stream');
    return rawBody;
  }
  if (body === undefined) return undefined;
  headers['Content-Type'] = 'application/json';
  return JSON.stringify(body);
}

export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body' | 'rawBody'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body' | 'rawBody'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * An error answer as an {@link ApiError}: the server's `{ error, code, issues? }`,
 * or a message from the status when the body is not ours. Also for an error
 * that arrives inside a 2xx answer (a stream's `error` event).
 */
export function apiErrorFromBody(
  payload: unknown,
  status: number,
  {
    statusText = '',
    fallbackMessage,
  }: { statusText?: string; fallbackMessage?: (status: number) => string | undefined } = {},
): ApiError {
  const record = isRecord(payload) ? payload : {};
  const message =
    typeof record.error === 'string' && record.error.trim() !== ''
      ? record.error
      : (fallbackMessage?.(status) ??
        `Request failed with status ${status}${statusText ? ` (${statusText})` : ''}`);
  const code = typeof record.code === 'string' ? record.code : `HTTP_${status}`;
  const issues = Array.isArray(record.issues) ? record.issues.flatMap(toApiIssue) : [];
  return new ApiError({ message, status, code, issues, body: payload });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One issue as the server writes it (a dotted `path`); an array path, as a
 * schema library gives it, is joined the same way so readers see one form.
 * Anything else is dropped.
 */
function toApiIssue(value: unknown): ApiIssue[] {
  if (!isRecord(value) || typeof value.message !== 'string') return [];
  const { path, message } = value;
  if (typeof path === 'string') return [{ path, message }];
  if (Array.isArray(path) && path.every((part) => typeof part === 'string' || typeof part === 'number')) {
    return [{ path: path.join('.'), message }];
  }
  return [];
}
