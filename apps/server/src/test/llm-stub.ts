import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlmConfig } from '../lib/llm';

/** A chat completion request as the stub received it. */
export type StubRequest = {
  model: string;
  messages: { role: string; content: string }[];
  /** Present when the caller asked for structured output. */
  responseFormat: unknown;
  /** Every message's text joined: what the model was shown. */
  text: string;
};

export type LlmStub = {
  config: LlmConfig;
  requests: StubRequest[];
  /** What the next calls answer: text content, or an HTTP error status. */
  reply: (answer: (request: StubRequest) => string | { status: number }) => void;
  close: () => Promise<void>;
};

/**
 * A local OpenAI-compatible chat completions server on 127.0.0.1 for tests of
 * the LLM engines: records each request and answers what the test says.
 */
export async function startLlmStub(): Promise<LlmStub> {
  const requests: StubRequest[] = [];
  let answer: (request: StubRequest) => string | { status: number } = () => 'stub answer';

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(await readBody(req)) as {
        model: string;
        messages: { role: string; content: string | { type: string; text?: string }[] }[];
        response_format?: unknown;
      };
      const messages = body.messages.map((message) => ({
        role: message.role,
        content:
          typeof message.content === 'string'
            ? message.content
            : message.content.map((part) => part.text ?? '').join(''),
      }));
      const request: StubRequest = {
        model: body.model,
        messages,
        responseFormat: body.response_format ?? null,
        text: messages.map((message) => message.content).join('\n'),
      };
      requests.push(request);
      const result = answer(request);
      if (typeof result !== 'string') {
        res
          .writeHead(result.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `stub error ${result.status}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: result }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    config: {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: 'stub-key',
      model: 'stub-model',
      timeoutMs: 5000,
    },
    requests,
    reply: (next) => {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
