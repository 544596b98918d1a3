import type { ContextPayload } from '../../protocol/index.js';
import { estimateMessageTokens, estimateTokens, reportedContextTokens, type ToolSchema, type WireApi } from '../../providers/index.js';
import type { HistoryMessage } from '../turn-types.js';
import { isSummaryMessage, type CompactionRecord } from './assembly.js';
import { contextThresholds, defaultContextSettings, type ContextSettings, type ContextThresholds } from './thresholds.js';

export interface ContextSources {
  window: number;
  family: WireApi;
  systemPrompt: { text: string; sections: ReadonlyArray<{ name: string; chars: number }> };
  /** Injected characters of each bootstrap file, inside the prompt's bootstrap section. */
  bootstrap: ReadonlyArray<{ name: string; injectedChars: number }>;
  tools: readonly ToolSchema[];
  /** The assembled history (summary first when there is one). */
  messages: readonly HistoryMessage[];
  /** Replies before this index predate the compaction in force: their usage is not evidence. */
  freshFrom?: number;
  settings?: ContextSettings;
}

export interface ContextPart {
  name: string;
  tokens: number;
}

export interface ContextAccount {
  window: number;
  /** Provider-reported when the last reply in view carried usage, else the estimate. */
  used: number;
  estimated: number;
  /** Set when `used` comes from provider-reported usage. */
  reported: number | undefined;
  parts: ContextPart[];
  thresholds: ContextThresholds;
  /** What the engine did to fit the window (pruned tool results, recalled turns), one line each, for `/context list`. */
  notes?: string[];
}

/**
 * A tool's parameters are the registry's own object, the same every turn, and
 * the context is accounted several times a turn: its JSON is made once.
 */
const schemaJson = new WeakMap<object, string>();

export function toolSchemaTokens(tools: readonly ToolSchema[], family: WireApi): number {
  let total = 0;
  for (const tool of tools) {
    let json = schemaJson.get(tool.parameters);
    if (json === undefined) {
      json = JSON.stringify(tool.parameters);
      schemaJson.set(tool.parameters, json);
    }
    total += estimateTokens(tool.name + tool.description + json, family);
  }
  return total;
}

/**
 * Estimates per message object: transcript entries do not change once
 * written, and a turn accounts the same hundreds of messages several times.
 */
const messageTokens = { openai: new WeakMap<object, number>(), anthropic: new WeakMap<object, number>() } satisfies Record<WireApi, WeakMap<object, number>>;

function messageTokensOf(message: HistoryMessage, family: WireApi): number {
  const cache = messageTokens[family];
  let tokens = cache.get(message);
  if (tokens === undefined) {
    tokens = estimateMessageTokens(message, family);
    cache.set(message, tokens);
  }
  return tokens;
}

/** The last user message, when nothing but the turn's reply and tool rounds follow it. */
function newMessageIndex(messages: readonly HistoryMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role === 'user') return isSummaryMessage(message) ? -1 : index;
  }
  return -1;
}

/**
 * Provider-reported size of the context: the last reply in view that carried
 * usage, plus estimates of what was appended after it. Replies kept from
 * before the compaction in force (before `freshFrom`) measured the old,
 * longer context, so they are not used.
 */
export function reportedTokens(messages: readonly HistoryMessage[], family: WireApi, freshFrom = 0): number | undefined {
  for (let index = messages.length - 1; index >= freshFrom; index -= 1) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || !message.usage) continue;
    let total = reportedContextTokens(message.usage);
    for (let later = index + 1; later < messages.length; later += 1) total += messageTokensOf(messages[later]!, family);
    return total;
  }
  return undefined;
}

/**
 * Estimates of recent system prompts: a turn accounts its context several
 * times (before the call, for the context pane, after the reply) with the same
 * prompt of up to 150,000+ characters. A few entries cover concurrent sessions.
 */
const promptTokens = { openai: new Map<string, number>(), anthropic: new Map<string, number>() } satisfies Record<WireApi, Map<string, number>>;
const PROMPTS_KEPT = 8;

function systemPromptTokens(text: string, family: WireApi): number {
  const cache = promptTokens[family];
  let tokens = cache.get(text);
  if (tokens === undefined) {
    tokens = estimateTokens(text, family);
    if (cache.size >= PROMPTS_KEPT) cache.delete(cache.keys().next().value as string);
    cache.set(text, tokens);
  }
  return tokens;
}

function systemParts(sources: ContextSources): ContextPart[] {
  const { text, sections } = sources.systemPrompt;
  const totalChars = sections.reduce((sum, section) => sum + section.chars, 0);
  // Sections are sized in characters; one estimate of the whole prompt gives the rate.
  const perChar = totalChars === 0 ? 0 : systemPromptTokens(text, sources.family) / totalChars;
  const parts: ContextPart[] = [];
  for (const section of sections) {
    if (section.chars === 0) continue;
    const tokens = Math.round(section.chars * perChar);
    if (section.name === 'bootstrap') {
      let files = 0;
      for (const file of sources.bootstrap) {
        if (file.injectedChars === 0) continue;
        const fileTokens = Math.round(file.injectedChars * perChar);
        files += fileTokens;
        parts.push({ name: `bootstrap:${file.name}`, tokens: fileTokens });
      }
      parts.push({ name: 'system:bootstrap', tokens: Math.max(0, tokens - files) });
    } else if (section.name === 'skills') parts.push({ name: 'skills', tokens });
    else if (section.name === 'tools') parts.push({ name: 'system:tools', tokens });
    else parts.push({ name: `system:${section.name}`, tokens });
  }
  return parts;
}

interface HistorySums {
  summary: number;
  conversation: number;
  toolResults: number;
}

/**
 * The sums of the last history accounted, keyed by its first message: the
 * next accounting of the conversation is the same messages plus a few, so
 * only those are looked up (a turn accounts hundreds of messages twice).
 */
const runs: Record<WireApi, WeakMap<object, { messages: readonly HistoryMessage[]; sums: HistorySums }>> = { openai: new WeakMap(), anthropic: new WeakMap() };

function historySums(messages: readonly HistoryMessage[], family: WireApi): HistorySums {
  const first = messages[0];
  if (!first) return { summary: 0, conversation: 0, toolResults: 0 };
  const run = runs[family].get(first);
  const reused = run && run.messages.length <= messages.length && run.messages.every((message, index) => message === messages[index]);
  const from = reused ? run.messages.length : 0;
  const sums = reused ? { ...run.sums } : { summary: 0, conversation: 0, toolResults: 0 };
  for (let index = from; index < messages.length; index += 1) {
    const message = messages[index]!;
    const tokens = messageTokensOf(message, family);
    if (isSummaryMessage(message)) sums.summary += tokens;
    else if (message.role === 'toolResult') sums.toolResults += tokens;
    else sums.conversation += tokens;
  }
  runs[family].set(first, { messages: [...messages], sums });
  return { ...sums };
}

/** Tokens of every part of the context, the total, and the marks that act on it. */
export function accountContext(sources: ContextSources): ContextAccount {
  const { family, messages } = sources;
  const parts = systemParts(sources);
  parts.push({ name: 'tools', tokens: toolSchemaTokens(sources.tools, family) });
  const newIndex = newMessageIndex(messages);
  const { summary, toolResults, conversation: history } = historySums(messages, family);
  // The new message is a user message, summed with the conversation above.
  const newMessage = newIndex >= 0 ? messageTokensOf(messages[newIndex]!, family) : 0;
  const conversation = history - newMessage;
  parts.push(
    { name: 'history:summary', tokens: summary },
    { name: 'history:messages', tokens: conversation },
    { name: 'history:tool results', tokens: toolResults },
    { name: 'new message', tokens: newMessage },
  );
  const estimated = parts.reduce((sum, part) => sum + part.tokens, 0);
  const reported = reportedTokens(messages, family, sources.freshFrom);
  const used = reported ?? estimated;
  // Calibrate the per-part estimates to the provider's count so they add up to what it reported.
  const scale = reported !== undefined && estimated > 0 ? reported / estimated : 1;
  return {
    window: sources.window,
    used,
    estimated,
    reported,
    parts: parts.map((part) => ({ name: part.name, tokens: Math.round(part.tokens * scale) })),
    thresholds: contextThresholds(sources.window, sources.settings ?? defaultContextSettings),
  };
}

/** The `context` event for a session. */
export function contextEventPayload(sessionKey: string, account: ContextAccount, compactions: readonly CompactionRecord[]): ContextPayload {
  return {
    sessionKey,
    window: account.window,
    used: account.used,
    parts: account.parts,
    thresholds: { flush: account.thresholds.flush, compact: account.thresholds.compact },
    compactions: compactions.map(({ at, before, after }) => ({ at, before, after })),
  };
}
