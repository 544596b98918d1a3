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

/** How long failover waits on a failing model before it gives up or moves to a fallback (providers/failover.ts). */
export const failoverSection = lazySchema(() =>
  z.strictObject({
    /** A stream silent this long fails as a stall. */
    idleTimeoutMs: z.number().int().min(1000).default(60_000),
    /** Retries of a failing model when no fallback is configured. */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** Retries of a failing model before its fallback is tried. */
    retriesWithFallback: z.number().int().min(0).max(10).default(1),
    /** Longest Retry-After waited out with no fallback. */
    maxRetryAfterMs: z.number().int().min(0).default(60_000),
    /** Longest wait before a retry while a fallback could answer instead. */
    maxWaitWithFallbackMs: z.number().int().min(0).default(5000),
  }),
);

export const modelsSection = lazySchema(() =>
  z.strictObject({
    providers: z.record(z.string(), providerEntry).default({}),
    failover: failoverSection.prefault({}),
  }),
);
