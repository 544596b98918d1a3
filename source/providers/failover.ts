import { MAX_RETRY_AFTER_MS } from './classify.js';
import type { ProfileCooldowns } from './cooldowns.js';
import { describeProfile } from './credentials.js';
import { ProviderError } from './errors.js';
import { sleepOn, type Clock, type TimerHandle } from '../config/index.js';
import { ProviderError as RetryAbort } from './errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from './http.js';
import type { AuthProfile, ProviderEvent, ResolvedModel, TurnRequest, WireRequest } from './types.js';

export interface FailoverPolicy {
  /** Retries of one model after server/network/overload errors (beyond the first try). */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A stream without data for this long fails as a network error (and is retried if nothing was streamed yet). */
  idleTimeoutMs: number;
  /** Retries of a model after attempts that brought only keep-alives: such a provider is wedged, not slow. */
  keepAliveRetries: number;
  /** An attempt with no event after this long waits outside the turn's global slot (see TurnRequest.outsideSlot). */
  lendAfterMs: number;
}

export const defaultFailoverPolicy: FailoverPolicy = {
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
  keepAliveRetries: 1,
  lendAfterMs: 500,
};

export interface FailoverDeps {
  resolve(ref: string): ResolvedModel;
  /** Throws ProviderError `not_configured` when the provider has no usable credential. */
  profiles(model: ResolvedModel): AuthProfile[];
  call(request: WireRequest): AsyncIterable<ProviderEvent>;
  cooldowns: ProfileCooldowns;
  clock: Clock;
  /** In [0, 1): the jitter source. */
  random(): number;
  policy: FailoverPolicy;
}

/**
 * One model call with failover, in this order of remedies:
 * - auth, billing: cool the profile down and rotate to the next profile at once;
 * - rate limit, overload: cool down and rotate; with no other profile, wait
 *   (Retry-After up to 60 s, else exponential backoff with jitter) and retry;
 * - server, network: back off and retry the same profile;
 * - when a model runs out of profiles or retries, move to the next fallback.
 * Context-length and bad-request errors are thrown at once: another attempt
 * would fail the same way. Nothing is retried once output reached the
 * caller: that error is thrown with `afterOutput: true` and the caller keeps
 * what it has. An attempt that stalled with only keep-alives is retried at
 * most `keepAliveRetries` times per model.
 *
 * With `request.outsideSlot`, every wait that needs no turn slot runs
 * through it: each backoff, and an attempt still without its first event
 * after `lendAfterMs`. The slot is held again before the next attempt
 * starts and before any event reaches the caller.
 */
export async function* streamWithFailover(request: TurnRequest, deps: FailoverDeps): AsyncGenerator<ProviderEvent> {
  const refs = [...new Set([request.model, ...(request.fallbacks ?? [])])];
  const failures: ProviderError[] = [];
  for (const [refIndex, ref] of refs.entries()) {
    const isLastModel = refIndex === refs.length - 1;
    let model: ResolvedModel;
    let profiles: AuthProfile[];
    try {
      model = deps.resolve(ref);
      profiles = deps.profiles(model);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      failures.push(error);
      continue;
    }
    const tried = new Set<string>();
    let retries = 0;
    let keepAliveStalls = 0;
    let current = pickProfile(profiles, model.provider, deps.cooldowns, tried, isLastModel);
    if (!current) failures.push(allCoolingError(model, profiles, deps));
    const previous = failures.at(-1);
    if (current && refIndex > 0 && previous) yield retryEvent(model, current, 0, 0, previous, 'fallback after ');
    while (current) {
      throwIfAborted(request.signal, model.ref);
      const profile: AuthProfile = current;
      try {
        const attempt = deps.call({
          model,
          auth: profile,
          system: request.system,
          messages: request.messages,
          tools: request.tools,
          thinking: request.thinking,
          maxOutputTokens: Math.min(request.maxOutputTokens ?? model.maxOutput, model.maxOutput),
          signal: request.signal,
          idleTimeoutMs: deps.policy.idleTimeoutMs,
        });
        yield* lendWhileSilent(attempt, request, deps);
        deps.cooldowns.succeed(model.provider, profile.id);
        return;
      } catch (raw) {
        const error = raw instanceof ProviderError ? raw : new ProviderError('server', `${model.ref}: ${String(raw)}`, { cause: raw });
        if (error.afterOutput || error.kind === 'aborted' || request.signal?.aborted) throw error;
        if (error.kind === 'context_length' || (error.kind === 'bad_request' && error.status !== 404)) throw error;
        failures.push(error);
        const rotates = error.kind === 'auth' || error.kind === 'billing' || error.kind === 'rate_limit' || error.kind === 'overloaded';
        if (rotates) deps.cooldowns.fail(model.provider, profile.id, error.kind);
        // 404: this provider does not serve the model; no key will change that.
        if (error.status === 404) break;
        if (error.kind === 'auth' || error.kind === 'billing') {
          tried.add(profile.id);
          current = pickProfile(profiles, model.provider, deps.cooldowns, tried, false);
          if (current) yield retryEvent(model, current, retries, 0, error);
          continue;
        }
        if (rotates) {
          tried.add(profile.id);
          const next = pickProfile(profiles, model.provider, deps.cooldowns, tried, false);
          if (next) {
            current = next;
            yield retryEvent(model, next, retries, 0, error);
            continue;
          }
        }
        if (error.keepAliveOnly && ++keepAliveStalls > deps.policy.keepAliveRetries) break;
        if (retries >= deps.policy.maxRetries || (error.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS) break;
        const delayMs = backoffDelay(retries, error, deps);
        retries += 1;
        yield retryEvent(model, profile, retries, delayMs, error);
        const backoff = (): Promise<void> =>
          sleepOn(deps.clock, delayMs, request.signal).catch(() => {
            throw new RetryAbort('aborted', 'The request was cancelled while waiting to retry.');
          });
        await (request.outsideSlot ? request.outsideSlot(backoff) : backoff());
        current = profile;
      }
    }
  }
  throw summarize(failures, refs);
}

/**
 * An attempt's events, its first one waited for outside the turn's slot once
 * the attempt has been silent for `lendAfterMs` (a slow or wedged provider).
 */
async function* lendWhileSilent(events: AsyncIterable<ProviderEvent>, request: TurnRequest, deps: FailoverDeps): AsyncGenerator<ProviderEvent> {
  const outsideSlot = request.outsideSlot;
  if (!outsideSlot) {
    yield* events;
    return;
  }
  const iterator = events[Symbol.asyncIterator]();
  try {
    const pending = iterator.next();
    let timer: TimerHandle | undefined;
    const silent = new Promise<boolean>((resolve) => {
      timer = deps.clock.setTimer(() => resolve(true), deps.policy.lendAfterMs);
    });
    const answered = pending.then(
      () => false,
      () => false,
    );
    const lend = await Promise.race([answered, silent]);
    if (timer) deps.clock.clearTimer(timer);
    let next = lend ? await outsideSlot(() => pending) : await pending;
    while (!next.done) {
      yield next.value;
      next = await iterator.next();
    }
  } finally {
    await iterator.return?.();
  }
}

/** The first usable profile; with `allowCooling`, the one whose cooldown ends first (billing excluded). */
function pickProfile(
  profiles: AuthProfile[],
  provider: string,
  cooldowns: ProfileCooldowns,
  tried: Set<string>,
  allowCooling: boolean,
): AuthProfile | undefined {
  const untried = profiles.filter((profile) => !tried.has(profile.id));
  const ready = untried.find((profile) => cooldowns.status(provider, profile.id) === undefined);
  if (ready || !allowCooling) return ready;
  let best: { profile: AuthProfile; until: number } | undefined;
  for (const profile of untried) {
    const status = cooldowns.status(provider, profile.id);
    if (!status || status.kind === 'billing') continue;
    if (!best || status.until < best.until) best = { profile, until: status.until };
  }
  return best?.profile;
}

function backoffDelay(retries: number, error: ProviderError, deps: FailoverDeps): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  const ceiling = Math.min(deps.policy.maxDelayMs, deps.policy.baseDelayMs * 2 ** retries);
  // "Equal jitter": at least half the step, so retries never bunch up at zero.
  return Math.round(ceiling / 2 + deps.random() * (ceiling / 2));
}

function retryEvent(model: ResolvedModel, profile: AuthProfile, attempt: number, delayMs: number, error: ProviderError, prefix = ''): ProviderEvent {
  return {
    type: 'retry',
    model: model.ref,
    profile: profile.id,
    attempt,
    delayMs,
    reason: `${prefix}${error.kind}${error.status ? ` (HTTP ${error.status})` : ''}`,
  };
}

function allCoolingError(model: ResolvedModel, profiles: AuthProfile[], deps: FailoverDeps): ProviderError {
  const ends = profiles.map((profile) => deps.cooldowns.status(model.provider, profile.id)).filter((s) => s !== undefined);
  const kind = ends.some((s) => s.kind === 'billing') ? 'billing' : 'rate_limit';
  const until = Math.min(...ends.map((s) => s.until));
  const wait = Math.max(0, Math.ceil((until - deps.clock.now()) / 1000));
  return new ProviderError(
    kind,
    `Every key for ${model.provider} is cooling down after recent failures (next in ${wait}s). Add another key or a fallback model.`,
    { model: model.ref },
  );
}

function throwIfAborted(signal: AbortSignal | undefined, model: string): void {
  if (signal?.aborted) throw new ProviderError('aborted', `${model}: the request was cancelled.`, { model });
}

function summarize(failures: ProviderError[], refs: string[]): ProviderError {
  const last = failures.at(-1);
  if (!last) return new ProviderError('not_configured', `No model to call (tried ${refs.join(', ')}).`);
  if (failures.length === 1) return last;
  const others = failures.slice(0, -1).map((f) => {
    // Which key failed matters when a provider has several; a keyless one needs no label.
    const key = f.profile && f.model ? describeProfile(f.profile, f.model.slice(0, f.model.indexOf('/'))) : undefined;
    return `${f.model ?? '?'}${key ? ` (${key})` : ''}: ${f.kind}`;
  });
  return new ProviderError(last.kind, `${last.message} Earlier attempts: ${others.join('; ')}.`, {
    status: last.status,
    retryAfterMs: last.retryAfterMs,
    providerType: last.providerType,
    model: last.model,
    profile: last.profile,
    keepAliveOnly: last.keepAliveOnly,
    cause: last,
  });
}
