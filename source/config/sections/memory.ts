import { z } from 'zod';

export const memorySection = z.strictObject({
  enabled: z.boolean().default(true),
  /** Further markdown files or folders to index besides MEMORY.md and memory/. */
  extraPaths: z.array(z.string()).default([]),
  embeddings: z.strictObject({
    /** `none` keeps search keyword-only. */
    provider: z.enum(['none', 'openai']).default('none'),
    baseUrl: z.string().url().optional(),
    model: z.string().default('text-embedding-3-small'),
    apiKeyEnv: z.string().optional(),
  }).prefault({}),
});
