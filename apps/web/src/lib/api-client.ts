/**
 * The one way the web app talks to the CourseLens JSON API (`/api/...`).
 *
 * - Sends and reads JSON; a 204 resolves to `undefined`.
 * - Any non-2xx answer throws an {@link ApiError} carrying the server's error
 *   shape `{ error, code, issues? }`, so screens show the server's message and
 *   forms can map `issues` to fields.
 * - The session token is attached as `Authorization: Bearer …` and the
 *   current organization as `X-Organization-Id`, both wired by `lib/auth.ts`
 *   through {@link configureApiClient}.
 */

export const API_BASE_PATH = '/api';

export type ApiIssue = {
  path: (string | number)[];
  message: string;
  code?: string;
};

/** The JSON error shape every server route answers with. */
export type ApiErrorBody = {
  error: string;
  code: string;
  issues?: ApiIssue[];
};

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

export type ApiRequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialized as JSON. */
  body?: unknown;
  /**
   * Appended as a query string; null, undefined and empty-string entries are
   * left out (an empty filter field means no filter, and the server would
   * refuse an empty date).
   */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

type ApiClientConfig = {
  /** Returns the current session token, if any. */
  getAuthToken: () => string | null | undefined;
  /** Returns the current organization's id, sent as `X-Organization-Id`. */
  getOrganizationId: () => string | null | undefined;
  /** Called when the server answers 401 to a request that carried a token. */
  onUnauthorized: (error: ApiError) => void;
};

const config: ApiClientConfig = {
  getAuthToken: () => null,
  getOrganizationId: () => null,
  onUnauthorized: () => {},
};

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
 * Calls `/api{path}` and resolves to the parsed JSON body typed as `T`.
 * The type is the caller's promise about the server's answer: parse it when
 * the answer is not under our control.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, headers = {}, signal } = options;
  const requestHeaders: Record<string, string> = { Accept: 'application/json', ...headers };
  if (body !== undefined) requestHeaders['Content-Type'] = 'application/json';
  const token = config.getAuthToken();
  if (token) requestHeaders.Authorization = `Bearer ${token}`;
  const organizationId = config.getOrganizationId();
  if (token && organizationId && !('X-Organization-Id' in headers)) {
    requestHeaders['X-Organization-Id'] = organizationId;
  }

  let response: Response;
  try {
    response = await fetch(buildApiUrl(path, query), {
      method,
      headers: requestHeaders,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({
      message: 'The server could not be reached. Check your connection and try again.',
      status: 0,
      code: 'NETWORK_ERROR',
      cause: error,
    });
  }

  const payload = await readBody(response);

  if (!response.ok) {
    const apiError = toApiError(response, payload);
    if (response.status === 401 && token) config.onUnauthorized(apiError);
    throw apiError;
  }
  return payload as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
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

function toApiError(response: Response, payload: unknown): ApiError {
  const record = isRecord(payload) ? payload : {};
  const message =
    typeof record.error === 'string' && record.error.trim() !== ''
      ? record.error
      : `Request failed with status ${response.status}${response.statusText ? ` (${response.statusText})` : ''}`;
  const code = typeof record.code === 'string' ? record.code : `HTTP_${response.status}`;
  const issues = Array.isArray(record.issues) ? record.issues.filter(isApiIssue) : [];
  return new ApiError({ message, status: response.status, code, issues, body: payload });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isApiIssue(value: unknown): value is ApiIssue {
  return (
    isRecord(value) &&
    typeof value.message === 'string' &&
    Array.isArray(value.path) &&
    value.path.every((part) => typeof part === 'string' || typeof part === 'number')
  );
}
