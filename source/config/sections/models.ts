import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

export const modelInfo = lazySchema(() =>
  z.strictObject({
    contextWindow: z.number().int().min(1024).default(128_000),
    maxOutput: z.number().int().min(1).default(8192),
    /** US dollars per million tokens. */
    cost: z
      .strictObject({
        input: z.number().min(0).default(0),
        output: z.number().min(0).default(0),
        cacheRead: z.number().min(0).optional(),
        cacheWrite: z.number().min(0).optional(),
      })
      .prefault({}),
    /**
     * Accepts a thinking level (OpenAI `reasoning_effort`, Anthropic extended
     * thinking). Unset: Anthropic models yes, OpenAI-compatible models no.
     */
    reasoning: z.boolean().optional(),
  }),
);

export const providerEntry = lazySchema(() =>
  z.strictObject({
    /**
     * Wire protocol: OpenAI-compatible Chat Completions or Anthropic Messages.
     * Optional for the built-in providers `openai`, `anthropic` and `ollama`.
     */
    api: z.enum(['openai', 'anthropic']).optional(),
    /** OpenAI-compatible: up to and including `/v1`; Anthropic: the host (`/v1/messages` is appended). */
    baseUrl: z.string().url().optional(),
    /** Environment variable holding the key; credentials/<provider>.json is read too. */
    apiKeyEnv: z.string().optional(),
    headers: z.record(z.string(), z.string()).default({}),
    models: z.record(z.string(), modelInfo).default({}),
  }),
);

export const modelsSection = lazySchema(() =>
  z.strictObject({
    providers: z.record(z.string(), providerEntry).default({}),
  }),
);
