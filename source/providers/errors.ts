export const providerErrorKinds = [
  'auth',
  'rate_limit',
  'overloaded',
  'billing',
  'context_length',
  'bad_request',
  'server',
  'network',
  'aborted',
  /** No key, unknown provider, malformed ref: nothing was sent. */
  'not_configured',
  /** A budget stopped the call before it was made (spend/gate.ts). */
  'budget',
] as const;
export type ProviderErrorKind = (typeof providerErrorKinds)[number];

export interface ProviderErrorInit {
  status?: number | undefined;
  retryAfterMs?: number | undefined;
  /** The provider's own error type string, e.g. `overloaded_error`. */
  providerType?: string | undefined;
  model?: string | undefined;
  profile?: string | undefined;
  /** True when some output had already been streamed to the caller. */
  afterOutput?: boolean | undefined;
  /** A stall during which the provider sent keep-alives and nothing else: failover retries it at most once. */
  keepAliveOnly?: boolean | undefined;
  /** No data for the idle timeout: with a fallback, failover switches at once instead of waiting again. */
  stalled?: boolean | undefined;
  /** The provider's own words: its error type and message (what a cooldown reports as its reason). */
  detail?: string | undefined;
  /** The context window the provider says the model has, read from its overflow message. */
  windowTokens?: number | undefined;
  /** Which cap stopped a `budget` call, and whether the owner may allow going past it. */
  budget?: BudgetStop | undefined;
  cause?: unknown;
}

export interface BudgetStop {
  /** The config key of the cap (`budgets.turn.maxUsd`), or `runaway` for a paused session. */
  key: string;
  /** An interactive turn's ceiling: the owner may allow one more. */
  ask: boolean;
  /** What to do about it, one sentence. */
  hint: string;
}

/** Every failure of a model call, classified so failover can decide what to do. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly providerType: string | undefined;
  readonly model: string | undefined;
  readonly profile: string | undefined;
  afterOutput: boolean;
  readonly keepAliveOnly: boolean;
  readonly stalled: boolean;
  readonly detail: string | undefined;
  readonly windowTokens: number | undefined;
  readonly budget: BudgetStop | undefined;

  constructor(kind: ProviderErrorKind, message: string, init: ProviderErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.providerType = init.providerType;
    this.model = init.model;
    this.profile = init.profile;
    this.afterOutput = init.afterOutput ?? false;
    this.keepAliveOnly = init.keepAliveOnly ?? false;
    this.stalled = init.stalled ?? init.keepAliveOnly ?? false;
    this.detail = init.detail;
    this.windowTokens = init.windowTokens;
    this.budget = init.budget;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}
