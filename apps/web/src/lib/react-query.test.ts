import { describe, expect, it } from 'vitest';

import { ApiError } from './api-client';
import { shouldRetryOnMount, shouldRetryRequest } from './react-query';

const apiError = (status: number) => new ApiError({ message: 'x', status, code: `HTTP_${status}` });

describe('shouldRetryRequest', () => {
  it('retries network errors, 5xx and 429 a limited number of times', () => {
    expect(shouldRetryRequest(0, apiError(0))).toBe(true);
    expect(shouldRetryRequest(0, apiError(503))).toBe(true);
    expect(shouldRetryRequest(1, apiError(429))).toBe(true);
    expect(shouldRetryRequest(2, apiError(503))).toBe(false);
  });

  it('never retries a request the server refused', () => {
    expect(shouldRetryRequest(0, apiError(400))).toBe(false);
    expect(shouldRetryRequest(0, apiError(401))).toBe(false);
    expect(shouldRetryRequest(0, apiError(404))).toBe(false);
    expect(shouldRetryRequest(0, new Error('unexpected shape'))).toBe(false);
  });
});

describe('shouldRetryOnMount', () => {
  const failed = (error: unknown, errorUpdatedAt: number) => ({ state: { error, errorUpdatedAt } });
  const now = 1_000_000;

  it('shows a refusal answered moments ago (the loader asked) instead of asking again', () => {
    expect(shouldRetryOnMount(failed(apiError(404), now - 2000), now)).toBe(false);
    expect(shouldRetryOnMount(failed(apiError(403), now - 29_000), now)).toBe(false);
  });

  it('asks again after a failure that may get better, or a refusal of some time ago', () => {
    expect(shouldRetryOnMount(failed(apiError(0), now - 2000), now)).toBe(true);
    expect(shouldRetryOnMount(failed(apiError(503), now - 2000), now)).toBe(true);
    expect(shouldRetryOnMount(failed(apiError(429), now - 2000), now)).toBe(true);
    expect(shouldRetryOnMount(failed(new Error('unexpected shape'), now - 2000), now)).toBe(true);
    expect(shouldRetryOnMount(failed(apiError(404), now - 31_000), now)).toBe(true);
  });
});
