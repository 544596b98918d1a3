import type { SpendCharge } from './spend/charge.js';
import type { AssistantBlock, AssistantMessageEntry, ToolResultEntry, Usage, UserMessageEntry } from '../protocol/index.js';
import type { ProviderErrorKind } from './errors.js';
import type { PluggedProvider } from './plugged.js';

export type { AssistantBlock, Usage } from '../protocol/index.js';

export type ThinkingLevel = 'off' | 'minimal' | 'low' | 'medium' | 'high';
export type WireApi = 'openai' | 'anthropic';

/**
 * The transcript's message shapes without id/parentId/timestamp, so the agent
 * passes its history straight through (extra fields are ignored).
 */
export type ProviderMessage =
  | Pick<UserMessageEntry, 'role' | 'content'>
  | Pick<AssistantMessageEntry, 'role' | 'content'>
  | (Pick<ToolResultEntry, 'role' | 'toolCallId' | 'toolName' | 'content' | 'isError'> & { attachments?: readonly ProviderMedia[] });

/** An image or sound of a tool result, loaded for the call (the transcript keeps only a file reference). */
export interface ProviderMedia {
  kind: 'image' | 'audio';
  mimeType: string;
  /** Base64. */
  data: string;
}

/** A tool as the model sees it; `parameters` is a JSON Schema object. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelCost {
  /** US dollars per million tokens. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Everything a wire client needs to call one model. */
export interface ResolvedModel {
  /** `provider/model` */
  ref: string;
  provider: string;
  id: string;
  api: WireApi;
  baseUrl: string;
  headers: Record<string, string>;
  contextWindow: number;
  maxOutput: number;
  cost: ModelCost;
  /** Whether the model accepts a thinking / reasoning-effort setting. */
  reasoning: boolean;
  /** False when the ref is not in the catalogue and defaults were assumed. */
  known: boolean;
}

/** One credential for a provider; several rotate on auth/rate-limit errors. */
export interface AuthProfile {
  /** `env:OPENAI_API_KEY`, `file:work`, or `none` for servers without auth. */
  id: string;
  apiKey: string | undefined;
}

export type StopReason = 'stop' | 'toolUse' | 'length';

export type ProviderEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  /** A complete tool call: emitted once its arguments have fully streamed. */
  | {
      type: 'tool_call';
      id: string;
      name: string;
      arguments: Record<string, unknown>;
      /** Set (and `arguments` empty) when the model's arguments were not a JSON object: answer with an error result. */
      invalidArguments?: string;
    }
  /** Provider-reported usage (cost filled in when the model's price is known). */
  | { type: 'usage'; usage: Usage }
  /**
   * Failover is about to try again before any output reached the caller:
   * informational, for status lines and logs.
   */
  | { type: 'retry'; model: string; profile: string; attempt: number; delayMs: number; reason: string }
  | {
      type: 'done';
      stopReason: StopReason;
      /** The assistant message as assembled from the stream, ready for the transcript. */
      content: AssistantBlock[];
      usage: Usage | undefined;
      /** The model ref and auth profile that produced this reply. */
      model: string;
      profile: string;
    };

/** What the agent asks for: one model call with failover. */
export interface TurnRequest {
  /** `provider/model` */
  model: string;
  /** Tried in order for this call only when the primary model fails before any output. */
  fallbacks?: readonly string[];
  system: string;
  messages: readonly ProviderMessage[];
  tools: readonly ToolSchema[];
  thinking: ThinkingLevel;
  /** Cap on output tokens; defaults to the model's maxOutput. */
  maxOutputTokens?: number;
  /** Whom the call is charged to: every budget that applies is checked before it is made. */
  charge?: SpendCharge;
  signal?: AbortSignal;
  /**
   * Runs a wait without the caller's global turn slot and resolves once the
   * slot is held again: failover passes its retry backoffs and silent
   * attempts through it, so one wedged provider cannot starve other sessions.
   */
  outsideSlot?<T>(wait: () => Promise<T>): Promise<T>;
}

/** One wire call to one model with one credential (no failover). */
export interface WireRequest {
  model: ResolvedModel;
  auth: AuthProfile;
  system: string;
  messages: readonly ProviderMessage[];
  tools: readonly ToolSchema[];
  thinking: ThinkingLevel;
  maxOutputTokens: number;
  signal: AbortSignal | undefined;
  /** Fail as a network error after this long without data (default 60 s). */
  idleTimeoutMs?: number;
}

export interface ModelListing {
  ref: string;
  provider: string;
  contextWindow: number;
  maxOutput: number;
  cost: ModelCost;
  /** Whether a credential (or a keyless local server) is available. */
  ready: boolean;
  /** Where the model came from. */
  source: 'builtin' | 'config' | 'ollama' | 'plugin';
}

/** A key or model that failover skips for now, and why (`claw status`, `claw models list`, the TUI footer). */
export interface CooldownStatus {
  scope: 'key' | 'model';
  provider: string;
  /** A key's profile id (`env:OPENAI_API_KEY`; `… for <ref>` when only one model is limited), or a model ref. */
  label: string;
  kind: ProviderErrorKind;
  /** The fault and the provider's own words for it, with the HTTP status. */
  reason: string;
  /** Epoch ms. */
  until: number;
}

/** The providers subsystem as the agent uses it (see createProviders). */
export interface Providers {
  /** One model call with auth-profile rotation, retries and fallback models. */
  streamTurn(request: TurnRequest): AsyncIterable<ProviderEvent>;
  /** Throws ProviderError kind `not_configured` for a malformed ref or unknown provider. */
  resolveModel(ref: string): ResolvedModel;
  /** The model to use when neither session nor agent names one; probes Ollama if nothing else is set up. */
  defaultModel(): Promise<string | undefined>;
  listModels(): Promise<ModelListing[]>;
  /** Keys and models failover is skipping now, soonest end first. */
  cooldowns(): CooldownStatus[];
  /** Lifts the cooldowns of a provider, model ref or key profile id (all without one); returns what was lifted. */
  resetCooldowns(which?: string): CooldownStatus[];
  /** Re-derives providers and models from the (live) config after a reload; cooldowns are kept. */
  reload(): void;
  /** Adds a provider made of code (a plugin's) until the returned function removes it; its name may not shadow another provider. */
  plug(provider: PluggedProvider): () => void;
  /** One line for a chat: where to look when no provider is configured. */
  setupHint(): string;
  /** Exactly what to set when no provider is configured, every way, one per line. */
  setupGuide(): string;
}
