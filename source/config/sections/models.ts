import { z } from 'zod';

export const modelInfo = z.strictObject({
  contextWindow: z.number().int().min(1024).default(128_000),
  maxOutput: z.number().int().min(1).default(8192),
  /** US dollars per million tokens. */
  cost: z.strictObject({
    input: z.number().min(0).default(0),
    output: z.number().min(0).default(0),
  }).prefault({}),
});

export const providerEntry = z.strictObject({
  /** Wire protocol: OpenAI-compatible Chat Completions or Anthropic Messages. */
  api: z.enum(['openai', 'anthropic']),
  baseUrl: z.string().url().optional(),
  /** Environment variable holding the key; credentials/<provider>.json is read too. */
  apiKeyEnv: z.string().optional(),
  headers: z.record(z.string(), z.string()).default({}),
  models: z.record(z.string(), modelInfo).default({}),
});

export const modelsSection = z.strictObject({
  providers: z.record(z.string(), providerEntry).default({}),
});
