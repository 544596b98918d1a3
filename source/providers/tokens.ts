import type { ProviderMessage, ToolSchema, Usage, WireApi } from './types.js';

/**
 * Characters per token for non-CJK text, calibrated against the providers'
 * tokenizers on English prose and code (o200k ≈ 4.0, Claude ≈ 3.5).
 */
const charsPerToken: Record<WireApi, number> = { openai: 4, anthropic: 3.5 };
/** Han, kana and Hangul come out near one token per character in both families. */
const CJK_TOKENS_PER_CHAR = 1;
/** Role markers and separators each message costs on the wire. */
const MESSAGE_OVERHEAD_TOKENS = 4;

function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // hiragana, katakana
    (code >= 0x3400 && code <= 0x4dbf) || // CJK extension A
    (code >= 0x4e00 && code <= 0x9fff) || // CJK unified
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) || // compatibility ideographs
    (code >= 0xff00 && code <= 0xffef) // full-width forms
  );
}

/** The blocks of isCjk, for one native scan that tells whether counting is needed at all. */
const ANY_CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

/** A fast token estimate for text; use provider-reported usage whenever there is one. */
export function estimateTokens(text: string, family: WireApi = 'openai'): number {
  let cjk = 0;
  // The system prompt (150,000 characters of bootstrap files) is estimated several times a turn:
  // the regex answers for text without CJK in a fraction of the per-character loop's time.
  if (ANY_CJK.test(text)) {
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      // Most text is below the first CJK block: one comparison per character.
      if (code >= 0x3040 && isCjk(code)) cjk += 1;
    }
  }
  return Math.ceil(cjk * CJK_TOKENS_PER_CHAR + (text.length - cjk) / charsPerToken[family]);
}

export function estimateMessageTokens(message: ProviderMessage, family: WireApi = 'openai'): number {
  if (message.role === 'user') return MESSAGE_OVERHEAD_TOKENS + estimateTokens(message.content, family);
  if (message.role === 'toolResult') return MESSAGE_OVERHEAD_TOKENS + estimateTokens(message.content, family);
  let total = MESSAGE_OVERHEAD_TOKENS;
  for (const block of message.content) {
    total += block.type === 'toolCall' ? estimateTokens(block.name + JSON.stringify(block.arguments), family) + 3 : estimateTokens(block.text, family);
  }
  return total;
}

export interface ContextParts {
  system: string;
  messages: readonly ProviderMessage[];
  tools: readonly ToolSchema[];
}

export function estimateContextTokens(parts: ContextParts, family: WireApi = 'openai'): number {
  let total = estimateTokens(parts.system, family);
  for (const tool of parts.tools) total += estimateTokens(tool.name + tool.description + JSON.stringify(tool.parameters), family);
  for (const message of parts.messages) total += estimateMessageTokens(message, family);
  return total;
}

/** Tokens the last call's context plus reply occupied, as the provider counted them. */
export function reportedContextTokens(usage: Usage): number {
  return usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0) + usage.output;
}
