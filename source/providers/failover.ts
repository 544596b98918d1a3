import { formatUntil } from '../protocol/index.js';
import { MAX_RETRY_AFTER_MS } from './classify.js';
import {
  keyTarget,
  MISSING_MODEL_COOLDOWN_MS,
  modelTarget,
  SERVER_COOLDOWN_MS,
  type CooldownStatus,
  type CooldownTarget,
  type Cooldowns,
} from './cooldowns.js';
import { describeProfile } from './credentials.js';
import { ProviderError, type ProviderErrorKind } from './errors.js';
import { repairRequest, type RepairableRequest } from './repair.js';
import { sleepOn, type Clock, type TimerHandle } from '../config/index.js';
import { ProviderError as RetryAbort } from './errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from './http.js';
import type { AuthProfile, ProviderEvent, ResolvedModel, TurnRequest, WireRequest } from './types.js';

export interface FailoverPolicy {
  /** Retries of one model after server/network/overload errors (beyond the first try) when no fallback is configured. */
  maxRetries: number;
  /** The same, when a fallback model could answer instead: a failing primary should not make every turn wait. */
  retriesWithFallback: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A stream without data for this long fails as a network error (and is retried if nothing was streamed yet). */
  idleTimeoutMs: number;
  /** Retries of a model after attempts that brought only keep-alives: such a provider is wedged, not slow. */
  keepAliveRetries: number;
  /** An attempt with no event after this long waits outside the turn's global slot (see TurnRequest.outsideSlot). */
  lendAfterMs: number;
  /** Longest Retry-After sat out when no fallback is configured; longer gives up. */
  maxRetryAfterMs: number;
  /** Longest wait before a retry when a fallback is configured; longer switches to the fallback at once. */
  maxWaitWithFallbackMs: number;
}

export const defaultFailoverPolicy: FailoverPolicy = {
  maxRetries: 3,
  retriesWithFallback: 1,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
  keepAliveRetries: 1,
  lendAfterMs: 500,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
  maxWaitWithFallbackMs: 5000,
};

export interface FailoverDeps {
  resolve(ref: string): ResolvedModel;
  /** Throws ProviderError `not_configured` when the provider has no usable credential. */
  profiles(model: ResolvedModel): AuthProfile[];
  call(request: WireRequest): AsyncIterable<ProviderEvent>;
  cooldowns: Cooldowns;
  clock: Clock;
  /** In [0, 1): the jitter source. */
  random(): number;
  policy: FailoverPolicy;
}

/** The faults of one credential: another key may work, the same key will not. */
const keyKinds = new Set<ProviderErrorKind>(['auth', 'billing']);

/**
 * One model call with failover. What a fault cools depends on whose it is:
 * a refused or exhausted key cools that key (by its value, so a new key
 * starts fresh); an account-wide rate limit cools the key, one that names
 * the model cools the key for that model only; an overloaded, missing or
 * persistently failing model cools that model, and the provider's other
 * models stay in use. One failed turn is one step of the cooldown ladder,
 * however many retries it made.
 *
 * Remedies, in order: rotate to another key at once; wait and retry the same
 * model (Retry-After up to `maxRetryAfterMs`, else backoff with jitter); move
 * to the next fallback. With a fallback configured, a stall, a wait longer
 * than `maxWaitWithFallbackMs` or more than `retriesWithFallback` retries
 * switches at once, and a model that kept failing with 5xx is skipped for
 * `SERVER_COOLDOWN_MS`. A request refused as invalid is repaired once
 * (repair.ts) and sent again; context-length errors go back to the caller,
 * which compacts. Nothing is retried once output reached the caller.
 *
 * With `request.outsideSlot`, every wait that needs no turn slot runs
 * through it: each backoff, and an attempt still without its first event
 * after `lendAfterMs`. The slot is held again before the next attempt
 * starts and before any event reaches the caller.
 */
export async function* streamWithFailover(request: TurnRequest, deps: FailoverDeps): AsyncGenerator<ProviderEvent> {
  const refs = [...new Set([request.model, ...(request.fallbacks ?? [])])];
  const { policy, cooldowns } = deps;
  const failures: ProviderError[] = [];
  const stepped = new Set<string>();
  const cool = (target: CooldownTarget, error: ProviderError, durationMs?: number): void => {
    cooldowns.fail(target, error.kind, reasonOf(error), { escalate: !stepped.has(target.id), ...(durationMs !== undefined ? { durationMs } : {}) });
    stepped.add(target.id);
  };
  let body: RepairableRequest = { messages: request.messages, tools: request.tools };
  let repaired = false;
  for (const [refIndex, ref] of refs.entries()) {
    const hasFallback = refIndex < refs.length - 1;
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
    const cooling = cooldowns.status(modelTarget(model.ref));
    // The last model is tried even while cooling: an answer late beats none.
    if (cooling && hasFallback) {
      failures.push(coolingError(model, [cooling], deps.clock.now()));
      continue;
    }
    const tried = new Set<string>();
    let retries = 0;
    let keepAliveStalls = 0;
    let current = pickProfile(profiles, model, cooldowns, tried, !hasFallback);
    if (!current) failures.push(coolingError(model, keyCooldowns(profiles, model, cooldowns), deps.clock.now()));
    const previous = failures.at(-1);
    if (current && refIndex > 0 && previous) yield retryEvent(model, current, 0, 0, `fallback after ${describe(previous)}`);
    while (current) {
      throwIfAborted(request.signal, model.ref);
      const profile: AuthProfile = current;
      try {
        const attempt = deps.call({
          model,
          auth: profile,
          system: request.system,
          messages: body.messages,
          tools: body.tools,
          thinking: request.thinking,
          maxOutputTokens: Math.min(request.maxOutputTokens ?? model.maxOutput, model.maxOutput),
          signal: request.signal,
          idleTimeoutMs: policy.idleTimeoutMs,
        });
        yield* lendWhileSilent(attempt, request, deps);
        for (const target of [keyTarget(model.provider, profile), keyTarget(model.provider, profile, model.ref), modelTarget(model.ref)])
          cooldowns.succeed(target);
        return;
      } catch (raw) {
        const error = raw instanceof ProviderError ? raw : new ProviderError('server', `${model.ref}: ${String(raw)}`, { cause: raw });
        if (error.afterOutput || error.kind === 'aborted' || request.signal?.aborted) throw error;
        if (error.kind === 'context_length') throw error;
        if (error.kind === 'bad_request' && error.status !== 404) {
          const repair = repaired ? undefined : repairRequest(body, error);
          repaired = true;
          if (!repair) throw refusedRequestError(error);
          body = repair;
          yield retryEvent(model, profile, retries, 0, `${describe(error)}: repaired the request (${repair.changes.join('; ')})`);
          continue;
        }
        failures.push(error);
        // 404: this provider does not serve the model; no key will change that.
        if (error.status === 404) {
          cool(modelTarget(model.ref), error, MISSING_MODEL_COOLDOWN_MS);
          break;
        }
        if (keyKinds.has(error.kind) || error.kind === 'rate_limit') {
          const modelWide = error.kind === 'rate_limit' && namesModel(error, model);
          cool(keyTarget(model.provider, profile, modelWide ? model.ref : undefined), error, error.kind === 'rate_limit' ? error.retryAfterMs : undefined);
          tried.add(profile.id);
          const next = pickProfile(profiles, model, cooldowns, tried, false);
          if (next) {
            current = next;
            yield retryEvent(model, next, retries, 0, describe(error));
            continue;
          }
          if (keyKinds.has(error.kind)) break;
        }
        if (error.kind === 'overloaded') cool(modelTarget(model.ref), error);
        if (error.keepAliveOnly) keepAliveStalls += 1;
        const delayMs = backoffDelay(retries, error, deps);
        const giveUp = hasFallback
          ? error.stalled || retries >= policy.retriesWithFallback || delayMs > policy.maxWaitWithFallbackMs
          : keepAliveStalls > policy.keepAliveRetries || retries >= policy.maxRetries || (error.retryAfterMs ?? 0) > policy.maxRetryAfterMs;
        if (giveUp) {
          // The next turns go straight to the fallback for a while instead of paying the same retries again.
          if (hasFallback && (error.kind === 'server' || error.kind === 'network')) cool(modelTarget(model.ref), error, SERVER_COOLDOWN_MS);
          break;
        }
        retries += 1;
        yield retryEvent(model, profile, retries, delayMs, describe(error));
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

/** A key's cooldowns that keep it from this model: its own, or its rate limit for this model. */
function keyStatus(profile: AuthProfile, model: ResolvedModel, cooldowns: Cooldowns): CooldownStatus | undefined {
  return cooldowns.status(keyTarget(model.provider, profile)) ?? cooldowns.status(keyTarget(model.provider, profile, model.ref));
}

function keyCooldowns(profiles: readonly AuthProfile[], model: ResolvedModel, cooldowns: Cooldowns): CooldownStatus[] {
  return profiles.flatMap((profile) => keyStatus(profile, model, cooldowns) ?? []);
}

/**
 * The first untried key that is not cooling; with `allowCooling`, else the
 * one whose cooldown ends first: a key refused once may work when the owner
 * resends, but a key out of credit waits for its probe.
 */
function pickProfile(
  profiles: readonly AuthProfile[],
  model: ResolvedModel,
  cooldowns: Cooldowns,
  tried: ReadonlySet<string>,
  allowCooling: boolean,
): AuthProfile | undefined {
  const untried = profiles.filter((profile) => !tried.has(profile.id));
  const ready = untried.find((profile) => keyStatus(profile, model, cooldowns) === undefined);
  if (ready || !allowCooling) return ready;
  let best: { profile: AuthProfile; until: number } | undefined;
  for (const profile of untried) {
    const status = keyStatus(profile, model, cooldowns);
    if (!status || status.kind === 'billing') continue;
    if (!best || status.until < best.until) best = { profile, until: status.until };
  }
  return best?.profile;
}

/** Whether a rate limit is the model's (OpenAI: "Rate limit reached for gpt-4o in organization …") rather than the account's. */
function namesModel(error: ProviderError, model: ResolvedModel): boolean {
  return (error.detail ?? '').includes(model.id);
}

function backoffDelay(retries: number, error: ProviderError, deps: FailoverDeps): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  const ceiling = Math.min(deps.policy.maxDelayMs, deps.policy.baseDelayMs * 2 ** retries);
  // "Equal jitter": at least half the step, so retries never bunch up at zero.
  return Math.round(ceiling / 2 + deps.random() * (ceiling / 2));
}

/** `overloaded (HTTP 529)`: what retry events and summaries call a fault. */
function describe(error: ProviderError): string {
  return `${error.kind}${error.status ? ` (HTTP ${error.status})` : error.stalled ? ' (stalled)' : ''}`;
}

/** A cooldown's reason: the fault and the provider's own words. */
function reasonOf(error: ProviderError): string {
  return error.detail ? `${error.kind}, ${error.detail}` : error.kind;
}

function retryEvent(model: ResolvedModel, profile: AuthProfile, attempt: number, delayMs: number, reason: string): ProviderEvent {
  return { type: 'retry', model: model.ref, profile: profile.id, attempt, delayMs, reason };
}

/** What lifts a cooldown, by its kind. */
function liftedBy(status: CooldownStatus): string {
  if (status.kind === 'billing') return 'topping up the account (probed every 5 min), a new key, or `claw models reset-cooldown` lifts it';
  if (status.kind === 'auth') return 'a new key or `claw models reset-cooldown` lifts it';
  return '`claw models reset-cooldown` lifts it early';
}

function coolingError(model: ResolvedModel, statuses: readonly CooldownStatus[], now: number): ProviderError {
  const first = statuses[0];
  if (!first) return new ProviderError('not_configured', `${model.ref} has no key to try.`, { model: model.ref });
  const parts = statuses.map((status) => {
    const what = status.scope === 'model' ? status.label : `key ${status.label}`;
    return `${what} is cooling after ${status.reason}; it is tried again ${formatUntil(status.until, now)} (${liftedBy(status)})`;
  });
  const subject = first.scope === 'model' ? `${model.ref} was skipped` : `Every key for ${model.provider} is cooling down`;
  return new ProviderError(first.kind, `${subject}: ${parts.join('; ')}.`, { model: model.ref, detail: first.reason });
}

/** A request refused as invalid even after repair: what was wrong, and the commands that fix the history. */
function refusedRequestError(error: ProviderError): ProviderError {
  return new ProviderError(
    'bad_request',
    `${error.model ?? 'The model'} refused the request as invalid (${error.detail ?? error.message}). ` +
      'The conversation history holds something this provider does not accept. /compact rewrites the history into a summary; /new starts a fresh session (this transcript stays on disk).',
    { status: error.status, providerType: error.providerType, model: error.model, profile: error.profile, detail: error.detail, cause: error },
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
    return `${f.model ?? '?'}${key ? ` (${key})` : ''}: ${describe(f)}`;
  });
  return new ProviderError(last.kind, `${last.message} Earlier attempts: ${others.join('; ')}.`, {
    status: last.status,
    retryAfterMs: last.retryAfterMs,
    providerType: last.providerType,
    model: last.model,
    profile: last.profile,
    keepAliveOnly: last.keepAliveOnly,
    detail: last.detail,
    cause: last,
  });
}
