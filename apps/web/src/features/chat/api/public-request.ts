import { apiFetch, apiRequest, isApiError, type ApiRequestOptions } from '@/lib/api-client';

/*
 * The chat page is public and often framed on another origin, so its calls
 * go through the API client anonymously: a learner's conversation must not
 * depend on (or leak) whoever happens to be signed in on this browser, and a
 * learner is identified by e-mail only, so no cookies either. Errors come out
 * as the app's ApiError, so screens read them the same way.
 */

export type PublicRequestOptions = Pick<
  ApiRequestOptions,
  'method' | 'body' | 'query' | 'headers' | 'signal'
>;

/** A rate limit in front of the server may answer without our error shape. */
function fallbackErrorMessage(status: number): string | undefined {
  return status === 429 ? 'Too many messages in a short time. Wait a moment and try again.' : undefined;
}

/** A public call that resolves to the response when it is 2xx (a reply streams from it). */
export function publicFetch(path: string, options: PublicRequestOptions = {}): Promise<Response> {
  return apiFetch(path, { ...options, anonymous: true, fallbackErrorMessage });
}

/** A public JSON call: the parsed body, typed by the caller's promise about the server's answer. */
export function publicJson<T>(path: string, options: PublicRequestOptions = {}): Promise<T> {
  return apiRequest<T>(path, { ...options, anonymous: true, fallbackErrorMessage });
}

/** Words for the learner from anything a call threw (our errors carry the server's message). */
export function errorMessage(error: unknown): string {
  return isApiError(error) ? error.message : 'Something went wrong. Please try again.';
}
