import { afterEach, describe, expect, it } from 'vitest';

import { jsonResponse, stubFetch } from '@/testing/test-utils';

import {
  ApiError,
  api,
  apiErrorFromBody,
  apiFetch,
  apiRequest,
  buildApiUrl,
  configureApiClient,
} from './api-client';

afterEach(() => {
  configureApiClient({ getAuthToken: () => null, getOrganizationId: () => null, onUnauthorized: () => {} });
});

function signIn(onUnauthorized: (error: ApiError) => void = () => {}) {
  configureApiClient({ getAuthToken: () => 'token-123', getOrganizationId: () => 'o1', onUnauthorized });
}

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
    // As the server writes them: one dotted path each, starting with the part of the request.
    const issues = [
      { path: 'body.subdomain', message: 'Subdomain cannot be empty' },
      { path: 'body.variables.0.name', message: 'Variable name is required' },
    ];
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

  it('gives every issue a dotted path, and drops what is not an issue', async () => {
    stubFetch(() =>
      jsonResponse(400, {
        error: 'Invalid request',
        code: 'VALIDATION_ERROR',
        issues: [
          { path: ['config', 'headers', 0, 'value'], message: 'Header value is required', code: 'custom' },
          { path: 'body.name', message: 42 },
          { path: { at: 'name' }, message: 'Odd path' },
          'Name is required',
        ],
      }),
    );

    const error = await api.post('/actions', {}).catch((caught: unknown) => caught);

    expect((error as ApiError).issues).toEqual([
      { path: 'config.headers.0.value', message: 'Header value is required' },
    ]);
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

  it('sends the current organization with the session token, unless the request names one', async () => {
    signIn();
    const fetchMock = stubFetch(() => jsonResponse(200, {}));

    await api.get('/courses');
    await api.get('/courses', { headers: { 'X-Organization-Id': 'o2' } });

    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ 'X-Organization-Id': 'o1' });
    expect(fetchMock.mock.calls[1]?.[1]?.headers).toMatchObject({ 'X-Organization-Id': 'o2' });
    expect(fetchMock.mock.calls[0]?.[1]).not.toHaveProperty('credentials');
  });

  it('words an error answer without a message of its own as the caller asks', async () => {
    stubFetch(
      () => new Response('<html>Slow down</html>', { status: 429, headers: { 'content-type': 'text/html' } }),
    );

    const error = await apiRequest('/chat/a1', {
      fallbackErrorMessage: (status) => (status === 429 ? 'Too many messages' : undefined),
    }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 429, code: 'HTTP_429', message: 'Too many messages' });
  });
});

describe('a raw body', () => {
  it('sends the bytes as they are, with their content type and the extra headers, and the session', async () => {
    signIn();
    const fetchMock = stubFetch(() => jsonResponse(200, { title: 'Guide' }));
    const file = new File(['# Menu'], 'Café.md');

    await expect(
      apiRequest('/chatbots/knowledge/extract', {
        method: 'POST',
        rawBody: file,
        contentType: 'text/markdown',
        headers: { 'X-File-Name': encodeURIComponent('Café.md') },
      }),
    ).resolves.toEqual({ title: 'Guide' });

    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe(file);
    expect(init?.headers).toEqual({
      Accept: 'application/json',
      'Content-Type': 'text/markdown',
      'X-File-Name': 'Caf%C3%A9.md',
      Authorization: 'Bearer token-123',
      'X-Organization-Id': 'o1',
    });
  });

  it('takes a Blob’s own type, else application/octet-stream', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, {}));
    const bytes = new Uint8Array([1, 2, 3]);

    await apiRequest('/upload', { method: 'POST', rawBody: new Blob(['a'], { type: 'text/plain' }) });
    await apiRequest('/upload', { method: 'POST', rawBody: bytes });

    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ 'Content-Type': 'text/plain' });
    expect(fetchMock.mock.calls[1]?.[1]?.headers).toMatchObject({
      'Content-Type': 'application/octet-stream',
    });
    expect(fetchMock.mock.calls[1]?.[1]?.body).toBe(bytes);
  });
});

describe('an anonymous request', () => {
  it('carries no token, no organization and no cookies, even with a session on this browser', async () => {
    const rejected: ApiError[] = [];
    signIn((error) => rejected.push(error));
    const fetchMock = stubFetch(() => jsonResponse(401, { error: 'Not for you', code: 'UNAUTHENTICATED' }));

    await expect(api.post('/chat/a1/messages', { message: 'Hi' }, { anonymous: true })).rejects.toMatchObject(
      {
        status: 401,
        message: 'Not for you',
      },
    );

    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.headers).not.toHaveProperty('Authorization');
    expect(init?.headers).not.toHaveProperty('X-Organization-Id');
    expect(init?.credentials).toBe('omit');
    expect(init?.body).toBe('{"message":"Hi"}');
    // The signed-in session is not the one refused: it stays.
    expect(rejected).toHaveLength(0);
  });
});

describe('apiFetch', () => {
  it('resolves to the unread response, for a stream', async () => {
    stubFetch(
      () => new Response('event: done\ndata: {}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
    );

    const response = await apiFetch('/chat/a1/messages', {
      method: 'POST',
      body: {},
      headers: { Accept: 'text/event-stream' },
    });

    expect(response.bodyUsed).toBe(false);
    await expect(response.text()).resolves.toContain('event: done');
  });
});

describe('apiErrorFromBody', () => {
  it('reads the error shape from a body that came another way (a stream event)', () => {
    const error = apiErrorFromBody({ error: 'The agent is switched off', code: 'CONFLICT' }, 500);
    expect(error).toMatchObject({ status: 500, code: 'CONFLICT', message: 'The agent is switched off' });
    expect(apiErrorFromBody(undefined, 500).message).toBe('Request failed with status 500');
  });
});
