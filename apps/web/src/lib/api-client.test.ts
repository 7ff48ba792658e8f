import { afterEach, describe, expect, it } from 'vitest';

import { jsonResponse, stubFetch } from '@/testing/test-utils';

import { ApiError, api, buildApiUrl, configureApiClient } from './api-client';

afterEach(() => {
  configureApiClient({ getAuthToken: () => null, onUnauthorized: () => {} });
});

describe('buildApiUrl', () => {
  it('prefixes /api and leaves out empty query values', () => {
    expect(
      buildApiUrl('/courses', { page: 2, search: 'a b', archived: undefined, tag: null, from: '' }),
    ).toBe('/api/courses?page=2&search=a+b');
    expect(buildApiUrl('health')).toBe('/api/health');
  });
});

describe('api', () => {
  it('sends JSON and resolves to the parsed body', async () => {
    const fetchMock = stubFetch(() => jsonResponse(201, { id: 'c1' }));

    await expect(api.post('/courses', { title: 'Safety' })).resolves.toEqual({ id: 'c1' });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/courses');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"title":"Safety"}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json' });
  });

  it('resolves a 204 to undefined', async () => {
    stubFetch(() => new Response(null, { status: 204 }));
    await expect(api.delete('/session')).resolves.toBeUndefined();
  });

  it("throws an ApiError carrying the server's error, code and issues", async () => {
    const issues = [{ path: ['subdomain'], message: 'Subdomain cannot be empty', code: 'custom' }];
    stubFetch(() => jsonResponse(400, { error: 'Invalid request', code: 'VALIDATION_ERROR', issues }));

    const error = await api.post('/organizations', {}).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      message: 'Invalid request',
      status: 400,
      code: 'VALIDATION_ERROR',
      issues,
    });
  });

  it('describes an error answer without the JSON error shape by its status', async () => {
    stubFetch(() => jsonResponse(503, { status: 'error' }));

    const error = await api.get('/health').catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 503, code: 'HTTP_503', body: { status: 'error' } });
    expect((error as ApiError).message).toMatch(/status 503/);
  });

  it('turns a failed connection into a NETWORK_ERROR with status 0', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });

    await expect(api.get('/health')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('sends the session token as a bearer token and reports a rejected one', async () => {
    const rejected: ApiError[] = [];
    configureApiClient({ getAuthToken: () => 'token-123', onUnauthorized: (error) => rejected.push(error) });
    const fetchMock = stubFetch(() =>
      jsonResponse(401, { error: 'Not authenticated', code: 'UNAUTHORIZED' }),
    );

    await expect(api.get('/me')).rejects.toMatchObject({ status: 401, message: 'Not authenticated' });

    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: 'Bearer token-123' });
    expect(rejected).toHaveLength(1);
  });

  it('sends no Authorization header without a session', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, {}));
    await api.get('/health');
    expect(fetchMock.mock.calls[0]?.[1]?.headers).not.toHaveProperty('Authorization');
  });
});
