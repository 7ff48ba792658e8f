import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, Output, stepCountIs, streamText, type ToolSet } from 'ai';
import type { z } from 'zod';

// The LLM engine of the AI features (architecture guide, "AI features without
// a model"): any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp)
// named by LLM_BASE_URL. Each feature keeps a built-in engine beside it and
// uses this one only when configured; the caller decides what it may send
// (statistics and names, never e-mail addresses).

export type LlmConfig = {
  /** Base URL of the API, e.g. `http://127.0.0.1:11434/v1` (no trailing slash). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
};

export class LlmError extends Error {
  override name = 'LlmError';
}

export type LlmEngine = {
  /** The model's name, shown to users beside what it wrote. */
  readonly model: string;
  /** Free text, e.g. a narrative summary. */
  generateText(input: { system: string; prompt: string }): Promise<string>;
  /** A structured answer validated by `schema`; a reply that does not fit throws an LlmError. */
  generateObject<T>(input: { system: string; prompt: string; schema: z.ZodType<T> }): Promise<T>;
  /**
   * A conversation turn, streamed: `onDelta` gets the text as it arrives;
   * the model may call `tools` (their inputs validated by their zod
   * schemas, their results sent back) for up to `maxSteps` steps. Resolves
   * with the whole text.
   */
  chat(input: {
    system: string;
    messages: readonly LlmChatMessage[];
    tools?: ToolSet;
    maxSteps?: number;
    onDelta?: (text: string) => void;
  }): Promise<string>;
};

export type LlmChatMessage = { role: 'user' | 'assistant'; content: string };

/** The engine for `config`, or null when no LLM is configured (the built-in engines answer then). */
export function createLlmEngine(config: LlmConfig | undefined): LlmEngine | null {
  if (!config) return null;
  const provider = createOpenAICompatible({
    name: 'llm',
    baseURL: config.baseUrl,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    supportsStructuredOutputs: true,
  });
  const model = provider.chatModel(config.model);
  // One retry: a slow or failing model should not hold a request for long.
  const settings = { model, maxRetries: 1, timeout: config.timeoutMs } as const;

  return {
    model: config.model,
    async generateText({ system, prompt }) {
      try {
        const result = await generateText({ ...settings, system, prompt });
        const text = result.text.trim();
        if (!text) throw new LlmError('The language model returned an empty answer');
        return text;
      } catch (error) {
        throw asLlmError(error);
      }
    },
    async generateObject<T>({
      system,
      prompt,
      schema,
    }: {
      system: string;
      prompt: string;
      schema: z.ZodType<T>;
    }) {
      try {
        const result = await generateText({ ...settings, system, prompt, output: Output.object({ schema }) });
        // The SDK validates against the schema already; parse again so the
        // type is exactly T and a lax provider cannot slip anything through.
        return schema.parse(result.output);
      } catch (error) {
        throw asLlmError(error);
      }
    },
    async chat({ system, messages, tools, maxSteps = 3, onDelta }) {
      let failure: unknown = null;
      try {
        const result = streamText({
          ...settings,
          system,
          messages: messages.map((message) => ({ role: message.role, content: message.content })),
          ...(tools ? { tools, stopWhen: stepCountIs(maxSteps) } : {}),
          onError: ({ error }) => {
            failure = error;
          },
        });
        let text = '';
        for await (const delta of result.textStream) {
          text += delta;
          onDelta?.(delta);
        }
        if (failure) throw asLlmError(failure);
        text = text.trim();
        if (!text) throw new LlmError('The language model returned an empty answer');
        return text;
      } catch (error) {
        throw asLlmError(error);
      }
    },
  };
}

function asLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError(`The language model could not answer: ${message}`);
}
