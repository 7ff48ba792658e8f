import { ApiError, buildApiUrl, isApiError } from '@/lib/api-client';

/**
 * The chat page is public and often framed on another origin, so its calls
 * carry no session: `apiRequest` would add the signed-in author's bearer token
 * and organization, and a learner's conversation must not depend on (or leak)
 * whoever happens to be signed in on this browser. Errors still come out as
 * the app's {@link ApiError}, so screens read them the same way.
 */

export const NETWORK_ERROR_MESSAGE = 'The server could not be reached. Check your connection and try again.';

export type PublicRequestOptions = {
  method?: 'GET' | 'POST';
  body?: unknown;
  query?: Record<string, string | undefined>;
  accept?: string;
  signal?: AbortSignal;
};

/** Sends the request and returns the response when it is 2xx; otherwise throws an {@link ApiError}. */
export async function publicFetch(path: string, options: PublicRequestOptions = {}): Promise<Response> {
  const { method = 'GET', body, query, accept = 'application/json', signal } = options;
  const headers: Record<string, string> = { Accept: accept };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(buildApiUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // No cookies either: a learner is identified by e-mail only.
      credentials: 'omit',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ message: NETWORK_ERROR_MESSAGE, status: 0, code: 'NETWORK_ERROR', cause: error });
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** A public JSON call: the parsed body, typed by the caller's promise about the server's answer. */
export async function publicJson<T>(path: string, options: PublicRequestOptions = {}): Promise<T> {
  const response = await publicFetch(path, options);
  return (await response.json()) as T;
}

/** The server's `{ error, code }` as an {@link ApiError}, or a plain status message when the body is not ours. */
export async function toApiError(response: Response): Promise<ApiError> {
  let payload: unknown;
  try {
    const text = await response.text();
    payload = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    payload = undefined;
  }
  return apiErrorFromBody(payload, response.status, response.statusText);
}

export function apiErrorFromBody(payload: unknown, status: number, statusText = ''): ApiError {
  const record = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const message =
    typeof record.error === 'string' && record.error.trim() !== ''
      ? record.error
      : status === 429
        ? 'Too many messages in a short time. Wait a moment and try again.'
        : `Request failed with status ${status}${statusText ? ` (${statusText})` : ''}`;
  const code = typeof record.code === 'string' ? record.code : `HTTP_${status}`;
  return new ApiError({ message, status, code, body: payload });
}

/** Words for the learner from anything a call threw (our errors carry the server's message). */
export function errorMessage(error: unknown): string {
  return isApiError(error) ? error.message : 'Something went wrong. Please try again.';
}
