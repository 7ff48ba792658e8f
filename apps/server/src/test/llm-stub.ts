import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlmConfig } from '../lib/llm';

/** A chat completion request as the stub received it. */
export type StubRequest = {
  model: string;
  messages: { role: string; content: string }[];
  /** Present when the caller asked for structured output. */
  responseFormat: unknown;
  /** The names of the tools the caller offered. */
  tools: string[];
  /** The caller asked for a stream (Server-Sent Events of chunks). */
  stream: boolean;
  /** Every message's text joined: what the model was shown. */
  text: string;
};

/** What the stub answers: text, calls of the offered tools, or an HTTP error status. */
export type StubAnswer =
  string | { status: number } | { toolCalls: { name: string; arguments: Record<string, unknown> }[] };

export type LlmStub = {
  config: LlmConfig;
  requests: StubRequest[];
  /** What the next calls answer. */
  reply: (answer: (request: StubRequest) => StubAnswer) => void;
  close: () => Promise<void>;
};

/**
 * A local OpenAI-compatible chat completions server on 127.0.0.1 for tests of
 * the LLM engines: records each request and answers what the test says.
 */
export async function startLlmStub(): Promise<LlmStub> {
  const requests: StubRequest[] = [];
  let answer: (request: StubRequest) => StubAnswer = () => 'stub answer';

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(await readBody(req)) as {
        model: string;
        messages: { role: string; content: string | null | { type: string; text?: string }[] }[];
        response_format?: unknown;
        tools?: { function: { name: string } }[];
        stream?: boolean;
      };
      const messages = body.messages.map((message) => ({
        role: message.role,
        content:
          message.content === null
            ? ''
            : typeof message.content === 'string'
              ? message.content
              : message.content.map((part) => part.text ?? '').join(''),
      }));
      const request: StubRequest = {
        model: body.model,
        messages,
        responseFormat: body.response_format ?? null,
        tools: (body.tools ?? []).map((t) => t.function.name),
        stream: body.stream === true,
        text: messages.map((message) => message.content).join('\n'),
      };
      requests.push(request);
      const result = answer(request);
      if (typeof result === 'object' && 'status' in result) {
        res
          .writeHead(result.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `stub error ${result.status}` } }));
        return;
      }
      const id = `chatcmpl-${requests.length}`;
      const created = Math.floor(Date.now() / 1000);
      const toolCalls =
        typeof result === 'string'
          ? null
          : result.toolCalls.map((call, index) => ({
              index,
              id: `call_${requests.length}_${index}`,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            }));
      const finish = toolCalls ? 'tool_calls' : 'stop';
      const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
      if (request.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
          `data: ${JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created,
            model: body.model,
            choices: [{ index: 0, delta, finish_reason: finishReason }],
          })}\n\n`;
        res.write(chunk({ role: 'assistant', content: '' }, null));
        if (toolCalls) res.write(chunk({ tool_calls: toolCalls }, null));
        else
          for (const piece of (result as string).match(/\S+\s*/g) ?? [])
            res.write(chunk({ content: piece }, null));
        res.write(chunk({}, finish));
        res.write(
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`,
        );
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [
            {
              index: 0,
              message: toolCalls
                ? {
                    role: 'assistant',
                    content: null,
                    tool_calls: toolCalls.map(({ index: _, ...call }) => call),
                  }
                : { role: 'assistant', content: result },
              finish_reason: finish,
            },
          ],
          usage,
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
