import { describe, expect, it } from 'vitest';

import { ApiError } from './api-client';
import { shouldRetryRequest } from './react-query';

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
