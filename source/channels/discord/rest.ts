import { sleepOn, type Clock } from '../../config/index.js';
import { redactToken } from '../credentials.js';

/** A refusal from Discord's REST API: the HTTP status, Discord's JSON error code and message. */
export class DiscordApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly route: string,
    message: string,
  ) {
    super(message);
  }
}

export interface DiscordRestOptions {
  /** The REST base without the version (`https://discord.com/api`). */
  apiRoot: string;
  token: string;
  clock: Clock;
  /** A 429 asking to wait longer than this fails the call instead of holding a chat for minutes. */
  maxRetryAfterSeconds?: number;
  /** Attempts per call on network and 5xx errors. */
  attempts?: number;
  backoffMs?: number;
  signal?: AbortSignal;
}

interface Bucket {
  /** Calls of this route run one after another. */
  tail: Promise<unknown>;
  remaining: number | undefined;
  resetAt: number;
}

/**
 * The route a call is rate-limited under: Discord's buckets are per route
 * with its major parameter (channel, guild, webhook) kept and every other id
 * folded, so edits of two messages in one channel share a bucket.
 */
export function routeOf(method: string, path: string): string {
  const folded = path
    .replace(/\/reactions\/[^/]+(\/@me)?/, '/reactions/:emoji')
    .replace(/\/(channels|guilds|webhooks)\/(\d+)|\/(\d{15,21})/g, (_all, major: string | undefined, id: string | undefined) =>
      major ? `/${major}/${id}` : '/:id',
    )
    .replace(/\/interactions\/:id\/[^/]+/, '/interactions/:id/:token');
  return `${method} ${folded}`;
}

/**
 * Discord's REST v10 with its rate limits honoured: one queue per route,
 * a bucket's `X-RateLimit-Remaining: 0` waits its `Reset-After` before the
 * next call, a 429 waits `retry_after` (a global one pauses every route),
 * network and 5xx errors back off. The token never reaches an error text.
 */
export class DiscordRest {
  readonly #options: DiscordRestOptions;
  readonly #buckets = new Map<string, Bucket>();
  #globalUntil = 0;
  /** 429s answered since the start (the bench and status read it). */
  rateLimited = 0;

  constructor(options: DiscordRestOptions) {
    this.#options = options;
  }

  request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const route = routeOf(method, path);
    let bucket = this.#buckets.get(route);
    if (!bucket) {
      bucket = { tail: Promise.resolve(), remaining: undefined, resetAt: 0 };
      this.#buckets.set(route, bucket);
    }
    const run = bucket.tail.then(() => this.#call<T>(bucket, route, method, path, body));
    bucket.tail = run.catch(() => undefined);
    return run;
  }

  async #wait(ms: number): Promise<void> {
    if (ms > 0) await sleepOn(this.#options.clock, ms, this.#options.signal);
  }

  async #call<T>(bucket: Bucket, route: string, method: string, path: string, body: unknown): Promise<T> {
    const { clock } = this.#options;
    let backoff = this.#options.backoffMs ?? 1000;
    let failures = 0;
    for (let limited = 0; ; ) {
      await this.#wait(this.#globalUntil - clock.now());
      if (bucket.remaining === 0) await this.#wait(bucket.resetAt - clock.now());
      let response: Response;
      try {
        response = await fetch(`${this.#options.apiRoot}/v10${path}`, {
          method,
          headers: {
            authorization: `Bot ${this.#options.token}`,
            'user-agent': 'DiscordBot (https://github.com/claw, 1)',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          ...(this.#options.signal ? { signal: this.#options.signal } : {}),
        });
      } catch (error) {
        if (this.#options.signal?.aborted) throw error;
        failures += 1;
        if (failures >= (this.#options.attempts ?? 4)) throw new Error(`cannot reach Discord (${route}): ${this.#redact(String((error as Error).message))}`);
        await this.#wait(backoff);
        backoff *= 2;
        continue;
      }
      this.#readLimits(bucket, response.headers);
      if (response.status === 429) {
        this.rateLimited += 1;
        const answer = (await response.json().catch(() => ({}))) as { retry_after?: number; global?: boolean };
        const wait = Number(answer.retry_after ?? response.headers.get('retry-after') ?? 1);
        limited += 1;
        if (wait > (this.#options.maxRetryAfterSeconds ?? 60) || limited > 5)
          throw new DiscordApiError(429, 0, route, `Discord rate-limited ${route} for ${wait} s; the call was not retried`);
        if (answer.global) this.#globalUntil = clock.now() + wait * 1000;
        else {
          bucket.remaining = 0;
          bucket.resetAt = clock.now() + wait * 1000;
        }
        continue;
      }
      if (response.status >= 500) {
        failures += 1;
        if (failures >= (this.#options.attempts ?? 4)) throw new DiscordApiError(response.status, 0, route, `Discord answered ${response.status} to ${route}`);
        await this.#wait(backoff);
        backoff *= 2;
        continue;
      }
      if (response.status === 204) return undefined as T;
      const text = await response.text();
      const parsed = text ? (JSON.parse(text) as unknown) : undefined;
      if (!response.ok) {
        const error = (parsed ?? {}) as { code?: number; message?: string };
        throw new DiscordApiError(
          response.status,
          error.code ?? 0,
          route,
          this.#redact(`Discord answered ${response.status} to ${route}: ${error.message ?? 'no reason given'}${error.code ? ` (code ${error.code})` : ''}`),
        );
      }
      return parsed as T;
    }
  }

  #readLimits(bucket: Bucket, headers: Headers): void {
    const remaining = headers.get('x-ratelimit-remaining');
    const resetAfter = headers.get('x-ratelimit-reset-after');
    if (remaining === null || resetAfter === null) return;
    bucket.remaining = Number(remaining);
    bucket.resetAt = this.#options.clock.now() + Number(resetAfter) * 1000;
  }

  #redact(text: string): string {
    return redactToken(text, this.#options.token);
  }
}
