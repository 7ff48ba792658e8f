import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  ACTION_MESSAGES,
  WEBHOOK_RESPONSE_BODY_LIMIT,
  WEBHOOK_TIMEOUT_MS,
  type WebhookMethod,
} from '@courselens/contracts';
import type { WebhookAllowedHost } from '../../config';
import {
  DeliveryRefusedError,
  normalizedHost,
  portOf,
  resolveDeliveryAddress,
  type HostLookup,
  type ResolvedAddress,
} from './address-guard';

export type HeaderPair = { name: string; value: string };

/** A request ready to go: URL, method, every header (the signature included) and the body. */
export type WebhookRequest = { url: string; method: WebhookMethod; headers: HeaderPair[]; body: string };

export type WebhookResponse = {
  status: number;
  statusText: string;
  headers: HeaderPair[];
  /** The first `WEBHOOK_RESPONSE_BODY_LIMIT` bytes, as UTF-8 text. */
  body: string;
  bodyTruncated: boolean;
  /** `Retry-After` in seconds (from seconds or an HTTP date), when present. */
  retryAfterSeconds: number | null;
};

/**
 * What became of a delivery. `errorKind`: `refused` (the address guard said
 * no; nothing was sent), `timeout`, `network` (no answer at all). An answer
 * of any status is a `response`: whether it counts as success is the
 * caller's rule (2xx).
 */
export type WebhookDelivery = {
  response: WebhookResponse | null;
  error: string | null;
  errorKind: 'refused' | 'timeout' | 'network' | null;
  durationMs: number;
  /** The address connected to, once checked. */
  address: string | null;
};

export type DeliverOptions = {
  allowedHosts: readonly WebhookAllowedHost[];
  timeoutMs?: number;
  lookup?: HostLookup;
  now?: () => Date;
};

const USER_AGENT = 'CourseLens-Webhooks/1.0';

/** Retry-After as seconds from now: a number of seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), 2_147_483_647);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

function networkErrorMessage(error: NodeJS.ErrnoException): string {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'The connection was refused (nothing listens at this address and port)';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'The connection was closed before an answer came';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'The host cannot be reached from this server';
  if (code.startsWith('ERR_TLS') || /CERT|SSL|SELF_SIGNED/.test(code))
    return `The TLS certificate could not be verified (${code})`;
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')) return 'The answer was not valid HTTP';
  return code ? `The request failed (${code})` : 'The request failed';
}

function pairsOf(rawHeaders: readonly string[]): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    pairs.push({ name: rawHeaders[index] ?? '', value: rawHeaders[index + 1] ?? '' });
  }
  return pairs;
}

/** Connects to the address that was checked, whatever a resolver would say now. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/**
 * Sends one webhook request and captures the answer (status, headers, the
 * first 4 KB of the body, duration, Retry-After). The host is resolved once
 * and checked by the address guard; the connection goes to that address.
 * Redirects are not followed: a 3xx is the answer (so a redirect cannot
 * lead to an address the guard would refuse). Never throws for a failed
 * delivery: the result says what happened.
 */
export async function deliverWebhook(
  request: WebhookRequest,
  options: DeliverOptions,
): Promise<WebhookDelivery> {
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const url = new URL(request.url);

  let target: ResolvedAddress;
  try {
    target = await resolveDeliveryAddress(url, options.allowedHosts, options.lookup);
  } catch (error) {
    if (!(error instanceof DeliveryRefusedError)) throw error;
    return {
      response: null,
      error: error.message,
      errorKind: 'refused',
      durationMs: elapsed(),
      address: null,
    };
  }

  const headers: http.OutgoingHttpHeaders = {};
  for (const header of request.headers) headers[header.name] = header.value;
  const hasHeader = (name: string) => request.headers.some((header) => header.name.toLowerCase() === name);
  if (!hasHeader('user-agent')) headers['User-Agent'] = USER_AGENT;
  headers['Content-Length'] = Buffer.byteLength(request.body);

  return new Promise<WebhookDelivery>((resolve) => {
    let isSettled = false;
    const settle = (result: Omit<WebhookDelivery, 'durationMs' | 'address'>) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed(), address: target.address });
    };
    const transport = url.protocol === 'https:' ? https : http;
    const outgoing = transport.request({
      protocol: url.protocol,
      hostname: normalizedHost(url),
      port: portOf(url),
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers,
      // A fresh connection each time: a pooled socket could lead to another address.
      agent: false,
      lookup: pinnedLookup(target),
    });
    const timer = setTimeout(() => {
      settle({ response: null, error: ACTION_MESSAGES.timeout, errorKind: 'timeout' });
      outgoing.destroy();
    }, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);

    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let isTruncated = false;
      const finish = () =>
        settle({
          response: {
            status: incoming.statusCode ?? 0,
            statusText: incoming.statusMessage ?? '',
            headers: pairsOf(incoming.rawHeaders),
            body: Buffer.concat(chunks).toString('utf8'),
            bodyTruncated: isTruncated,
            retryAfterSeconds: parseRetryAfter(
              typeof incoming.headers['retry-after'] === 'string'
                ? incoming.headers['retry-after']
                : undefined,
              now(),
            ),
          },
          error: null,
          errorKind: null,
        });
      incoming.on('data', (chunk: Buffer) => {
        const room = WEBHOOK_RESPONSE_BODY_LIMIT - kept;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          kept += room;
          isTruncated = true;
          // Enough: the rest of a large answer is never read.
          finish();
          incoming.destroy();
          return;
        }
        chunks.push(chunk);
        kept += chunk.length;
      });
      incoming.on('end', finish);
      incoming.on('close', finish);
      incoming.on('error', finish);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      settle({ response: null, error: networkErrorMessage(error), errorKind: 'network' }),
    );
    outgoing.end(request.body);
  });
}
