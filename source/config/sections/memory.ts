import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

export const memorySection = lazySchema(() =>
  z.strictObject({
    enabled: z.boolean().default(true),
    /** Further markdown files or folders to index besides MEMORY.md and memory/. */
    extraPaths: z.array(z.string()).default([]),
    embeddings: z
      .strictObject({
        /** `none` keeps search keyword-only; `openai` is any OpenAI-compatible /v1/embeddings (OpenAI, Ollama, llama.cpp, vLLM). */
        provider: z.enum(['none', 'openai']).default('none'),
        /** Base URL including `/v1`; default https://api.openai.com/v1. */
        baseUrl: z.string().url().optional(),
        model: z.string().default('text-embedding-3-small'),
        /** Environment variable holding the key; default OPENAI_API_KEY. Local servers need none. */
        apiKeyEnv: z.string().optional(),
        /** Texts per /embeddings request. */
        batchSize: z.number().int().min(1).max(2048).default(64),
        /** Per-request timeout; a slow server counts as a transient error. */
        timeoutMs: z.number().int().min(100).default(30_000),
        /** Retries of one batch after 429 (not quota), 5xx or network errors. */
        maxRetries: z.number().int().min(0).max(10).default(3),
      })
      .prefault({}),
    chunking: z
      .strictObject({
        /** Target chunk size in estimated tokens. */
        tokens: z.number().int().min(32).max(8192).default(400),
        /** Tokens repeated from the end of the previous chunk when a section is split. */
        overlap: z.number().int().min(0).max(1024).default(80),
      })
      .prefault({}),
    search: z
      .strictObject({
        maxResults: z.number().int().min(1).max(100).default(6),
        minScore: z.number().min(0).max(1).default(0.35),
        vectorWeight: z.number().min(0).max(1).default(0.7),
        textWeight: z.number().min(0).max(1).default(0.3),
        /** Each ranker returns maxResults × this many candidates before fusion. */
        candidateMultiplier: z.number().int().min(1).max(20).default(4),
        /**
         * Hybrid fusion: both candidate lists are normalised the same way first, by rank (reciprocal rank, the default:
         * better recall and MRR on our relevance suite) or by min–max of their scores.
         */
        fusion: z.enum(['rank', 'minmax']).default('rank'),
        /** Maximal marginal relevance: trades relevance for diversity (λ = 1 is pure relevance). */
        mmr: z
          .strictObject({
            enabled: z.boolean().default(false),
            lambda: z.number().min(0).max(1).default(0.7),
          })
          .prefault({}),
        /**
         * Dated notes `memory/YYYY-MM-DD*.md` lose half their score every halfLifeDays; other files never decay.
         * halfLifeDays is also how fast older chunks fall behind for questions about the current state ("now", 现在), which applies even when decay is off.
         */
        temporalDecay: z
          .strictObject({
            enabled: z.boolean().default(false),
            halfLifeDays: z.number().min(0.1).default(30),
          })
          .prefault({}),
      })
      .prefault({}),
    /** The gateway re-indexes an agent's memory this long after the last file change. */
    watchDebounceMs: z.number().int().min(0).default(1500),
  }),
);
