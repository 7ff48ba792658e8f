import {
  sendChatMessageResponse,
  type SendChatMessageInput,
  type SendChatMessageResponse,
} from '@courselens/contracts';

import { ApiError, apiErrorFromBody } from '@/lib/api-client';

import { readSseStream } from '../utils/sse';

import { publicFetch } from './public-request';

export const INTERRUPTED_MESSAGE = 'The reply was cut off before it ended. Please send your message again.';
export const UNREADABLE_MESSAGE = 'The reply could not be read. Please send your message again.';

export type SendChatMessageOptions = {
  /** Each piece of the reply as it streams in. */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
};

/**
 * `POST /api/chat/:chatbotId/messages`, asking for Server-Sent Events so the
 * reply shows as it is written. Resolves to the whole turn (the `done`
 * event, or the JSON body when the server or a proxy answered without a
 * stream); a refusal, an `error` event or a stream that stops short rejects
 * with an {@link ApiError} carrying a message for the learner.
 */
export async function sendChatMessage(
  chatbotId: string,
  input: SendChatMessageInput,
  { onDelta, signal }: SendChatMessageOptions = {},
): Promise<SendChatMessageResponse> {
  const response = await publicFetch(`/chat/${encodeURIComponent(chatbotId)}/messages`, {
    method: 'POST',
    body: input,
    headers: { Accept: 'text/event-stream' },
    signal,
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream') || !response.body) {
    return parseTurn(await response.json().catch(() => undefined));
  }

  // A holder rather than a `let`: the type checker cannot see the callback assign it.
  const outcome: { turn?: SendChatMessageResponse } = {};
  await readSseStream(response.body, ({ event, data }) => {
    if (event === 'delta') {
      const text = deltaText(data);
      if (text) onDelta?.(text);
    } else if (event === 'done') {
      outcome.turn = parseTurn(parseJson(data));
    } else if (event === 'error') {
      // The headers already said 200; the failure is the event's.
      throw apiErrorFromBody(parseJson(data), 500);
    }
  });
  if (!outcome.turn)
    throw new ApiError({ message: INTERRUPTED_MESSAGE, status: 0, code: 'STREAM_INTERRUPTED' });
  return outcome.turn;
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** A piece that cannot be read is skipped: the `done` event carries the whole reply anyway. */
function deltaText(data: string): string {
  const payload = parseJson(data);
  if (typeof payload !== 'object' || payload === null) return '';
  const { text } = payload as { text?: unknown };
  return typeof text === 'string' ? text : '';
}

function parseTurn(payload: unknown): SendChatMessageResponse {
  const parsed = sendChatMessageResponse.safeParse(payload);
  if (!parsed.success) throw new ApiError({ message: UNREADABLE_MESSAGE, status: 0, code: 'BAD_RESPONSE' });
  return parsed.data;
}
