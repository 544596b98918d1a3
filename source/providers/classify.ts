import { describeProfile } from './credentials.js';
import { ProviderError, type ProviderErrorKind } from './errors.js';

/** Longest server-requested wait we honour; anything longer moves on to a fallback. */
export const MAX_RETRY_AFTER_MS = 60_000;

interface ErrorBody {
  type: string | undefined;
  code: string | undefined;
  message: string | undefined;
}

/** Pulls type/code/message out of OpenAI (`{error:{type,code,message}}`) and Anthropic (`{type:'error',error:{type,message}}`) bodies. */
export function parseErrorBody(text: string): ErrorBody {
  try {
    const parsed: unknown = JSON.parse(text);
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : isRecord(parsed) ? parsed : {};
    return {
      type: typeof error.type === 'string' ? error.type : undefined,
      code: typeof error.code === 'string' ? error.code : undefined,
      message: typeof error.message === 'string' ? error.message : typeof error.error === 'string' ? error.error : undefined,
    };
  } catch {
    return { type: undefined, code: undefined, message: text.trim().slice(0, 300) || undefined };
  }
}

/** `retry-after-ms` (OpenAI), then `retry-after` as seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const billingTypes = new Set(['insufficient_quota', 'billing_error', 'billing_hard_limit_reached']);
const contextTypes = new Set(['context_length_exceeded', 'exceed_context_size_error', 'request_too_large', 'string_above_max_length']);

/**
 * Some servers (Anthropic's "prompt is too long", vLLM) report an over-long
 * prompt as a generic 400 without a distinguishing type; only for that one
 * case do we look at the text, because compaction depends on recognising it.
 */
const untypedContextOverflow = /prompt is too long|maximum context length|context length|context window/i;

export function kindFor(status: number, body: ErrorBody): ProviderErrorKind {
  const types = [body.type, body.code].filter((t): t is string => t !== undefined);
  if (types.some((t) => billingTypes.has(t)) || status === 402) return 'billing';
  if (types.some((t) => contextTypes.has(t)) || status === 413) return 'context_length';
  if (types.includes('overloaded_error') || status === 529 || status === 503) return 'overloaded';
  if (status === 429 || types.includes('rate_limit_error') || types.includes('rate_limit_exceeded')) return 'rate_limit';
  if (status === 401 || status === 403 || types.includes('authentication_error') || types.includes('permission_error')) return 'auth';
  if (status === 400 && body.message !== undefined && untypedContextOverflow.test(body.message)) return 'context_length';
  if (status >= 500 || types.includes('api_error')) return 'server';
  return 'bad_request';
}

const nextStep: Record<ProviderErrorKind, string> = {
  auth: 'Check the API key (environment variable or credentials file) for this provider.',
  rate_limit: 'The provider is rate-limiting this key; wait a moment or add another auth profile.',
  overloaded: 'The provider is overloaded; try again shortly or configure a fallback model.',
  billing: 'The account is out of credit or quota; top it up or switch to another key or model.',
  context_length: 'The conversation is too long for this model; compact it or start a new session.',
  bad_request: 'The provider rejected the request; check the model name and settings.',
  server: 'The provider had an internal error; try again or configure a fallback model.',
  network: 'Could not reach the provider; check the network and the base URL.',
  aborted: 'The request was cancelled.',
  not_configured: 'Configure a provider (see `claw models list`).',
  budget: 'A budget stopped the call; `claw budget` shows them all.',
};

export function hintFor(kind: ProviderErrorKind): string {
  return nextStep[kind];
}

export interface HttpFailure {
  status: number;
  headers: Headers;
  bodyText: string;
  model: string;
  profile: string;
  now: number;
}

/** The next step for a refused key names the key, so the operator knows which one to fix. */
function keyHint(kind: ProviderErrorKind, model: string, profile: string): string {
  if (kind !== 'auth' && kind !== 'billing') return hintFor(kind);
  const provider = model.slice(0, model.indexOf('/'));
  const key = describeProfile(profile, provider);
  if (!key) return kind === 'auth' ? `${provider} asked for an API key and none is configured; \`claw models list\` shows where to put one.` : hintFor(kind);
  return kind === 'auth'
    ? `Check the API key: ${key} was refused; replace it, or remove it to use the next key.`
    : `The account behind ${key} is out of credit or quota; top it up or switch to another key or model.`;
}

/**
 * The window a provider states in its overflow message: OpenAI's "maximum
 * context length is 16385 tokens", Anthropic's "250000 tokens > 200000
 * maximum", llama.cpp's "exceeds the available context size (4096 tokens)".
 */
export function statedWindow(message: string | undefined): number | undefined {
  const match =
    /maximum context length is (\d+)/i.exec(message ?? '') ??
    /> (\d+) maximum/.exec(message ?? '') ??
    /context (?:size|window|length)[^\d]{0,20}(\d+)/i.exec(message ?? '');
  const tokens = Number(match?.[1]);
  return Number.isInteger(tokens) && tokens > 0 ? tokens : undefined;
}

export function classifyHttpError(failure: HttpFailure): ProviderError {
  const body = parseErrorBody(failure.bodyText);
  const kind = kindFor(failure.status, body);
  const detail = [body.type ?? body.code, body.message].filter(Boolean).join(': ');
  const message = `${failure.model} failed with HTTP ${failure.status}${detail ? ` (${detail})` : ''}. ${keyHint(kind, failure.model, failure.profile)}`;
  return new ProviderError(kind, message, {
    status: failure.status,
    retryAfterMs: parseRetryAfter(failure.headers, failure.now),
    providerType: body.type ?? body.code,
    model: failure.model,
    profile: failure.profile,
    detail: `HTTP ${failure.status}${detail ? `: ${detail}` : ''}`,
    ...(kind === 'context_length' ? { windowTokens: statedWindow(body.message) } : {}),
  });
}

/** An `error` object delivered inside a 200 stream (Anthropic `event: error`, OpenAI `{error:…}` chunk). */
export function classifyStreamError(payload: unknown, model: string, profile: string): ProviderError {
  const body = parseErrorBody(JSON.stringify(payload));
  const status = body.type === 'overloaded_error' ? 529 : body.type === 'rate_limit_error' ? 429 : 500;
  const kind = kindFor(status, body);
  const detail = [body.type ?? body.code, body.message].filter(Boolean).join(': ');
  return new ProviderError(kind, `${model} reported an error mid-stream (${detail || 'no detail'}). ${hintFor(kind)}`, {
    providerType: body.type ?? body.code,
    model,
    profile,
    detail: `in the stream: ${detail || 'no detail'}`,
    ...(kind === 'context_length' ? { windowTokens: statedWindow(body.message) } : {}),
  });
}

/** Maps a thrown fetch/stream error to aborted or network. */
export function classifyThrown(error: unknown, signal: AbortSignal | undefined, model: string, profile: string): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted) return new ProviderError('aborted', `${model}: the request was cancelled.`, { model, profile, cause: error });
  const reason = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);
  return new ProviderError('network', `${model}: connection failed (${reason}). ${hintFor('network')}`, { model, profile, cause: error });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
