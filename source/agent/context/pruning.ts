import type { HistoryMessage } from '../turn-types.js';

/** `context.pruning`: how old tool results are shortened in what is sent (never in the transcript). */
export interface PruningSettings {
  enabled: boolean;
  /** A result longer than this is cut to its head and tail. */
  softTrimChars: number;
  /** Whole old results are cleared only once the context is past this share of the window… */
  minWindowShare: number;
  /** …and the prunable tool output left is longer than this. */
  minPrunableChars: number;
  /** The latest assistant turns whose tool results are never touched. */
  keepLastAssistantTurns: number;
  /** Tools whose results may be pruned (empty: all) and tools whose results never are; `*` matches any run of characters. */
  tools: { allow: readonly string[]; deny: readonly string[] };
}

export type PruneMode = 'trim' | 'clear';

/** What was done to one tool result in the messages sent. */
export interface PrunedResult {
  id: string;
  tool: string;
  mode: PruneMode;
  /** Characters of the result in the transcript, and as sent. */
  chars: number;
  sentChars: number;
}

export interface PruneInput {
  settings: PruningSettings;
  /** Context use now, as a share of the window. */
  windowShare: number;
  /** Decisions made on earlier calls: kept as they are, so the prompt-cache prefix stays the same. */
  decided: ReadonlyMap<string, PruneMode>;
  /** Whether new results may be pruned now (the provider's prompt cache has gone cold, or there is none). */
  mayDecide: boolean;
  /** Where the whole result can be read back, for the marker (a path the `read` tool reaches), by entry id. */
  storedAt?: (message: Extract<HistoryMessage, { role: 'toolResult' }>) => string | undefined;
}

export interface PruneOutput {
  messages: HistoryMessage[];
  /** Every decision in force after this call (old and new). */
  decided: Map<string, PruneMode>;
  pruned: PrunedResult[];
}

function globMatch(pattern: string, name: string): boolean {
  const expression = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return expression.test(name);
}

function prunableTool(settings: PruningSettings, tool: string): boolean {
  if (settings.tools.deny.some((pattern) => globMatch(pattern, tool))) return false;
  return settings.tools.allow.length === 0 || settings.tools.allow.some((pattern) => globMatch(pattern, tool));
}

/** Indexes of the messages pruning may touch: after the first user message and before the last N assistant turns. */
function prunableRange(messages: readonly HistoryMessage[], keepLastAssistantTurns: number): { from: number; to: number } {
  const from = messages.findIndex((message) => message.role === 'user');
  if (from < 0) return { from: 0, to: 0 };
  let seen = 0;
  let to = messages.length;
  for (let index = messages.length - 1; index > from; index -= 1) {
    if (messages[index]!.role !== 'assistant') continue;
    seen += 1;
    to = index;
    if (seen >= keepLastAssistantTurns) break;
  }
  if (seen < keepLastAssistantTurns) to = from;
  return { from, to };
}

function where(input: PruneInput, message: Extract<HistoryMessage, { role: 'toolResult' }>): string {
  const path = input.storedAt?.(message);
  return path ? `read ${path} for the whole result` : 'the whole result stays in the session transcript';
}

function trimmed(input: PruneInput, message: Extract<HistoryMessage, { role: 'toolResult' }>): string {
  const cap = input.settings.softTrimChars;
  const head = Math.floor(cap * 0.6);
  const tail = Math.floor(cap * 0.3);
  const omitted = message.content.length - head - tail;
  return `${message.content.slice(0, head)}\n[… ${omitted} characters of this ${message.toolName} result pruned from the context; ${where(input, message)}]\n${message.content.slice(-tail)}`;
}

function cleared(input: PruneInput, message: Extract<HistoryMessage, { role: 'toolResult' }>): string {
  return `[${message.toolName} result of ${message.content.length} characters cleared from the context to make room; ${where(input, message)}]`;
}

/**
 * The messages as they are sent, with old tool results pruned: long ones cut
 * to head and tail, and once the window is filling and old tool output is
 * large, the oldest cleared to a one-line stub. Pure: the transcript's
 * messages are never changed, and a result pruned once stays pruned the same
 * way (so what was sent before stays a stable prefix for the prompt cache).
 */
export function pruneToolResults(messages: readonly HistoryMessage[], input: PruneInput): PruneOutput {
  const decided = new Map(input.decided);
  const { settings } = input;
  if (!settings.enabled) return { messages: [...messages], decided, pruned: [] };
  const { from, to } = prunableRange(messages, settings.keepLastAssistantTurns);
  const candidates: number[] = [];
  for (let index = from; index < to; index += 1) {
    const message = messages[index]!;
    if (message.role === 'toolResult' && prunableTool(settings, message.toolName)) candidates.push(index);
  }
  if (input.mayDecide) {
    for (const index of candidates) {
      const message = messages[index] as Extract<HistoryMessage, { role: 'toolResult' }>;
      if (!decided.has(message.id) && message.content.length > settings.softTrimChars) decided.set(message.id, 'trim');
    }
    if (input.windowShare >= settings.minWindowShare) {
      const sentLength = (index: number): number => {
        const message = messages[index] as Extract<HistoryMessage, { role: 'toolResult' }>;
        const mode = decided.get(message.id);
        return mode === 'clear' ? 0 : mode === 'trim' ? Math.min(message.content.length, settings.softTrimChars) : message.content.length;
      };
      let prunable = candidates.reduce((total, index) => total + sentLength(index), 0);
      for (const index of candidates) {
        if (prunable <= settings.minPrunableChars) break;
        const message = messages[index]!;
        if (decided.get(message.id) === 'clear') continue;
        prunable -= sentLength(index);
        decided.set(message.id, 'clear');
      }
    }
  }
  const pruned: PrunedResult[] = [];
  const out = messages.map((message, index) => {
    if (message.role !== 'toolResult' || index < from || index >= to) return message;
    const mode = decided.get(message.id);
    if (!mode) return message;
    const content = mode === 'clear' ? cleared(input, message) : trimmed(input, message);
    if (content.length >= message.content.length) return message;
    pruned.push({ id: message.id, tool: message.toolName, mode, chars: message.content.length, sentChars: content.length });
    return { ...message, content };
  });
  return { messages: out, decided, pruned };
}
