import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { createSseParser, readSseStream, type SseEvent } from './sse';

function parseChunks(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

describe('createSseParser', () => {
  it('reads several events from one chunk', () => {
    const events = parseChunks([
      'event: delta\ndata: {"text":"Hel"}\n\nevent: delta\ndata: {"text":"lo"}\n\nevent: done\ndata: {}\n\n',
    ]);
    expect(events).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('puts together an event split anywhere across chunks, CRLF included', () => {
    const events = parseChunks([
      'ev',
      'ent: del',
      'ta\r',
      '\ndata: {"te',
      'xt":"a b"}\r\n',
      '\r\nevent: done\n',
      'data: 1\n\n',
    ]);
    expect(events).toEqual([
      { event: 'delta', data: '{"text":"a b"}' },
      { event: 'done', data: '1' },
    ]);
  });

  it('emits nothing for an event until its blank line arrives', () => {
    const events: SseEvent[] = [];
    const parser = createSseParser((event) => events.push(event));
    parser.push('event: delta\ndata: {"text":"x"}\n');
    expect(events).toEqual([]);
    parser.push('\n');
    expect(events).toHaveLength(1);
  });

  it('joins data lines, skips comments and other fields, and names an unnamed event "message"', () => {
    const events = parseChunks([': keep-alive\n\nid: 7\nretry: 1000\ndata: one\ndata:two\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('delivers a last event the server did not close with a blank line', () => {
    expect(parseChunks(['event: done\ndata: {"ok":true}'])).toEqual([{ event: 'done', data: '{"ok":true}' }]);
  });

  it('gives the same events however the stream is cut', () => {
    const eventArbitrary = fc.record({
      event: fc.constantFrom('delta', 'done', 'error'),
      data: fc.string().filter((value) => !/[\r\n]/.test(value)),
    });
    fc.assert(
      fc.property(
        fc.array(eventArbitrary, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        (events, cuts, newline) => {
          const text = events
            .map(({ event, data }) => `event: ${event}${newline}data: ${data}${newline}${newline}`)
            .join('');
          const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let previous = 0;
          for (const position of [...positions, text.length]) {
            chunks.push(text.slice(previous, position));
            previous = position;
          }
          expect(parseChunks(chunks)).toEqual(events);
        },
      ),
    );
  });
});

describe('readSseStream', () => {
  it('decodes characters whose bytes arrive in different chunks', async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"café ✓"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readSseStream(stream, (event) => events.push(event));
    expect(events).toEqual([{ event: 'delta', data: '{"text":"café ✓"}' }]);
  });
});
