import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACTION_MESSAGES } from '@courselens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostLookup } from './address-guard';
import { deliverWebhook, parseRetryAfter, type WebhookRequest } from './deliver-webhook';

type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

let server: Server;
let port: number;
const received: Received[] = [];
let respond: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) =>
  response.end('ok');

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      respond(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const allowed = () => [{ host: '127.0.0.1', port }];
const request = (overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url: `http://127.0.0.1:${port}/hook?x=1`,
  method: 'POST',
  headers: [{ name: 'Content-Type', value: 'application/json' }],
  body: '{"hello":"world"}',
  ...overrides,
});

describe('deliverWebhook', () => {
  it('sends the request as given and captures the answer', async () => {
    respond = (_request, response) => {
      response.writeHead(202, 'Accepted', { 'x-receiver': 'test', 'retry-after': '30' });
      response.end('{"stored":true}');
    };
    received.length = 0;
    const delivery = await deliverWebhook(request({ method: 'PUT' }), { allowedHosts: allowed() });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'PUT',
      url: '/hook?x=1',
      body: '{"hello":"world"}',
      headers: { 'content-type': 'application/json', 'user-agent': 'CourseLens-Webhooks/1.0' },
    });
    expect(delivery).toMatchObject({
      error: null,
      errorKind: null,
      address: '127.0.0.1',
      response: {
        status: 202,
        statusText: 'Accepted',
        body: '{"stored":true}',
        bodyTruncated: false,
        retryAfterSeconds: 30,
      },
    });
    expect(delivery.response?.headers).toContainEqual({ name: 'x-receiver', value: 'test' });
    expect(delivery.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('keeps only the first 4 KB of a large answer', async () => {
    respond = (_request, response) => response.end('x'.repeat(100_000));
    const delivery = await deliverWebhook(request(), { allowedHosts: allowed() });
    expect(delivery.response?.body).toHaveLength(4096);
    expect(delivery.response?.bodyTruncated).toBe(true);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    respond = (_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      response.end();
    };
    received.length = 0;
    const delivery = await deliverWebhook(request(), { allowedHosts: allowed() });
    expect(delivery.response?.status).toBe(302);
    expect(received).toHaveLength(1);
  });

  it('gives up after the timeout', async () => {
    respond = () => {
      // Never answers.
    };
    const delivery = await deliverWebhook(request(), { allowedHosts: allowed(), timeoutMs: 300 });
    expect(delivery).toMatchObject({ response: null, errorKind: 'timeout', error: ACTION_MESSAGES.timeout });
  });

  it('says when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const delivery = await deliverWebhook(request({ url: `http://127.0.0.1:${closedPort}/` }), {
      allowedHosts: [{ host: '127.0.0.1', port: null }],
    });
    expect(delivery).toMatchObject({ response: null, errorKind: 'network' });
    expect(delivery.error).toMatch(/refused/);
  });

  it('sends nothing to a loopback address that is not allowed', async () => {
    received.length = 0;
    const delivery = await deliverWebhook(request(), { allowedHosts: [] });
    expect(delivery).toMatchObject({
      response: null,
      errorKind: 'refused',
      error: ACTION_MESSAGES.hostNotAllowed('127.0.0.1'),
    });
    expect(received).toHaveLength(0);
  });

  it('resolves a name once and connects to the address it checked (no second lookup to rebind)', async () => {
    respond = (_request, response) => response.end('ok');
    received.length = 0;
    let lookups = 0;
    // First answer: the allowed test receiver; any later lookup would have pointed elsewhere.
    const lookup: HostLookup = async () => {
      lookups += 1;
      return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }];
    };
    const delivery = await deliverWebhook(request({ url: `http://hooks.test:${port}/named` }), {
      allowedHosts: [{ host: 'hooks.test', port: null }],
      lookup,
    });
    expect(delivery.response?.status).toBe(200);
    expect(lookups).toBe(1);
    expect(received[0]?.headers.host).toBe(`hooks.test:${port}`);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-02-01T10:00:00Z');
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Sun, 01 Feb 2026 10:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Sun, 01 Feb 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
