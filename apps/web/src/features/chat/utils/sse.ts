/**
 * A Server-Sent Events parser for a stream read with `fetch`: `EventSource`
 * can only GET, and a chat message is a POST with a body. It follows the
 * HTML standard's rules for the fields the chat uses (`event`, `data`; `id`
 * and `retry` are read and ignored) and accepts text in pieces of any size,
 * since the network cuts a stream wherever it likes.
 */

export type SseEvent = {
  /** `message` when the server named none. */
  event: string;
  /** The event's `data:` lines joined with line feeds. */
  data: string;
};

export type SseParser = {
  /** Feeds the next piece of text; complete events are passed to `onEvent` at once. */
  push: (text: string) => void;
  /** The stream ended: a last event the server did not close with a blank line is still delivered. */
  end: () => void;
};

export function createSseParser(onEvent: (event: SseEvent) => void): SseParser {
  let buffer = '';
  let isStart = true;
  let eventName = '';
  let dataLines: string[] = [];

  function dispatch() {
    if (dataLines.length > 0) onEvent({ event: eventName || 'message', data: dataLines.join('\n') });
    eventName = '';
    dataLines = [];
  }

  function processLine(line: string) {
    if (line === '') return dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') dataLines.push(value);
  }

  function processBuffer(isFinal: boolean) {
    let start = 0;
    for (let index = 0; index < buffer.length; index += 1) {
      const char = buffer[index];
      if (char !== '\n' && char !== '\r') continue;
      // A CR at the end of a piece may be the first half of a CRLF: wait for the next piece.
      if (char === '\r' && index === buffer.length - 1 && !isFinal) break;
      processLine(buffer.slice(start, index));
      if (char === '\r' && buffer[index + 1] === '\n') index += 1;
      start = index + 1;
    }
    buffer = buffer.slice(start);
  }

  return {
    push(text) {
      buffer += text;
      if (isStart && buffer.length > 0) {
        if (buffer.startsWith('\uFEFF')) buffer = buffer.slice(1);
        isStart = false;
      }
      processBuffer(false);
    },
    end() {
      processBuffer(true);
      // Lenient on purpose: a proxy that drops the final blank line must not cost the learner the answer.
      if (buffer !== '') processLine(buffer);
      buffer = '';
      dispatch();
    },
  };
}

/** Reads a whole byte stream through the parser (UTF-8 characters may be split across chunks). */
export async function readSseStream(
  stream: ReadableStream<Uint8Array>,
  onEvent: (event: SseEvent) => void,
): Promise<void> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser(onEvent);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } catch (error) {
    // The caller stopped on an event (an error, a bad payload): close the connection rather than leave it open.
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}
