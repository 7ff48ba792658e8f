import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startLlmStub, type LlmStub } from '../test/llm-stub';
import { createLlmEngine, LlmError } from './llm';

let stub: LlmStub;

beforeAll(async () => {
  stub = await startLlmStub();
});

afterAll(async () => {
  await stub.close();
});

describe('the LLM engine', () => {
  it('is absent when no endpoint is configured', () => {
    expect(createLlmEngine(undefined)).toBeNull();
  });

  it('sends the system text and prompt to the model and returns its text', async () => {
    const engine = createLlmEngine(stub.config);
    stub.reply((request) => `echo: ${request.messages.at(-1)?.content ?? ''}`);
    await expect(engine?.generateText({ system: 'Be brief.', prompt: 'Hello' })).resolves.toBe('echo: Hello');
    const request = stub.requests.at(-1);
    expect(request?.model).toBe('stub-model');
    expect(request?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
    ]);
  });

  it('returns a structured answer that fits the schema', async () => {
    const engine = createLlmEngine(stub.config);
    stub.reply(() => JSON.stringify({ title: 'Scores', count: 3 }));
    const schema = z.object({ title: z.string(), count: z.number().int() });
    await expect(engine?.generateObject({ system: 's', prompt: 'p', schema })).resolves.toEqual({
      title: 'Scores',
      count: 3,
    });
    expect(stub.requests.at(-1)?.responseFormat).not.toBeNull();
  });

  it('fails with an LlmError when the answer does not fit, or the endpoint fails', async () => {
    const engine = createLlmEngine(stub.config);
    const schema = z.object({ title: z.string() });
    stub.reply(() => JSON.stringify({ name: 'no title' }));
    await expect(engine?.generateObject({ system: 's', prompt: 'p', schema })).rejects.toBeInstanceOf(
      LlmError,
    );
    stub.reply(() => ({ status: 500 }));
    await expect(engine?.generateText({ system: 's', prompt: 'p' })).rejects.toBeInstanceOf(LlmError);
    stub.reply(() => '   ');
    await expect(engine?.generateText({ system: 's', prompt: 'p' })).rejects.toThrow('empty answer');
  });
});
