import type { ClawConfig } from '../config/index.js';

/** One interface for every embedding backend; vectors come back in input order. */
export interface EmbeddingProvider {
  /** Names the provider in status lines, e.g. `openai-compatible http://127.0.0.1:11434/v1`. */
  readonly label: string;
  readonly model: string;
  /** `maxRetries` overrides the configured retries (a search cannot wait through backoff). */
  embed(texts: string[], options?: { maxRetries?: number }): Promise<Float32Array[]>;
}

export type EmbeddingErrorKind = 'quota' | 'auth' | 'bad_request' | 'transient';

/**
 * Raised when embedding cannot continue. Quota and auth errors are never
 * retried: retrying them only burns time and the user's tool deadline.
 */
export class EmbeddingError extends Error {
  readonly kind: EmbeddingErrorKind;
  /** Server's Retry-After hint for transient errors. */
  readonly retryAfterMs: number | undefined;
  constructor(kind: EmbeddingErrorKind, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'EmbeddingError';
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
  }
}

export interface OpenAiEmbeddingOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  batchSize: number;
  timeoutMs: number;
  maxRetries: number;
  /** First retry delay; doubles each attempt (jittered). */
  retryBaseMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function classify(status: number, body: string, retryAfterMs: number | undefined): EmbeddingError {
  const lower = body.toLowerCase();
  const detail = body.slice(0, 300).replace(/\s+/g, ' ');
  if (lower.includes('insufficient_quota') || lower.includes('quota') || lower.includes('billing') || status === 402) {
    return new EmbeddingError(
      'quota',
      `The embedding provider reports the quota or billing limit is exhausted (HTTP ${status}: ${detail}). Embedding stopped; search is keyword-only until the account is topped up, then run \`claw memory index\`.`,
    );
  }
  if (status === 401 || status === 403) {
    return new EmbeddingError(
      'auth',
      `The embedding provider rejected the API key (HTTP ${status}). Embedding stopped; check memory.embeddings.apiKeyEnv and the key, then run \`claw memory index\`.`,
    );
  }
  if (status === 429 || status >= 500 || status === 408) {
    return new EmbeddingError('transient', `The embedding provider answered HTTP ${status}: ${detail}`, retryAfterMs);
  }
  return new EmbeddingError(
    'bad_request',
    `The embedding provider refused the request (HTTP ${status}: ${detail}). Check memory.embeddings.model and baseUrl.`,
  );
}

function parseRetryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) ? Math.min(60_000, Math.max(0, seconds * 1000)) : undefined;
}

interface EmbeddingsResponse {
  data: { index: number; embedding: number[] }[];
}

function isEmbeddingsResponse(value: unknown): value is EmbeddingsResponse {
  if (typeof value !== 'object' || value === null) return false;
  const data = (value as { data?: unknown }).data;
  return Array.isArray(data) && data.every((row) => typeof row === 'object' && row !== null && Array.isArray((row as { embedding?: unknown }).embedding));
}

/** OpenAI-compatible `POST /embeddings` (OpenAI, Ollama, llama.cpp server, vLLM). */
export function createOpenAiEmbeddings(options: OpenAiEmbeddingOptions): EmbeddingProvider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const retryBase = options.retryBaseMs ?? 500;

  async function requestOnce(input: string[]): Promise<Float32Array[]> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify({ model: options.model, input }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new EmbeddingError('transient', `Could not reach the embedding provider at ${url}: ${(error as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      throw classify(res.status, text, parseRetryAfter(res.headers.get('retry-after')));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new EmbeddingError('bad_request', `The embedding provider at ${url} did not answer JSON.`);
    }
    if (!isEmbeddingsResponse(body) || body.data.length !== input.length) {
      throw new EmbeddingError('bad_request', `The embedding provider at ${url} answered without one embedding per input.`);
    }
    const ordered = [...body.data].sort((a, b) => a.index - b.index);
    return ordered.map((row) => Float32Array.from(row.embedding));
  }

  async function requestWithRetry(input: string[], maxRetries: number): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await requestOnce(input);
      } catch (error) {
        if (!(error instanceof EmbeddingError) || error.kind !== 'transient' || attempt >= maxRetries) throw error;
        await sleep(error.retryAfterMs ?? retryBase * 2 ** attempt * (0.75 + Math.random() / 2));
      }
    }
  }

  return {
    label: `openai-compatible ${options.baseUrl}`,
    model: options.model,
    async embed(texts, embedOptions) {
      const retries = embedOptions?.maxRetries ?? options.maxRetries;
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += options.batchSize) out.push(...(await requestWithRetry(texts.slice(i, i + options.batchSize), retries)));
      return out;
    },
  };
}

/** The configured provider, or undefined when memory is keyword-only. */
export function embeddingProviderFromConfig(config: ClawConfig, env: NodeJS.ProcessEnv = process.env): EmbeddingProvider | undefined {
  const settings = config.memory.embeddings;
  if (settings.provider === 'none') return undefined;
  const apiKey = env[settings.apiKeyEnv ?? 'OPENAI_API_KEY']?.trim() || undefined;
  return createOpenAiEmbeddings({
    baseUrl: settings.baseUrl ?? 'https://api.openai.com/v1',
    model: settings.model,
    apiKey,
    batchSize: settings.batchSize,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
}
