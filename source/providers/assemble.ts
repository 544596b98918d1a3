import type { AssistantBlock, ModelCost, StopReason, Usage } from './types.js';

/** Builds the assistant message from streamed pieces, in the order they arrived. */
export class MessageAssembler {
  private readonly blocks: AssistantBlock[] = [];
  /** True once anything user-visible was produced (failover must not retry after that). */
  emitted = false;

  appendText(text: string): void {
    this.emitted = true;
    const last = this.blocks.at(-1);
    if (last?.type === 'text') last.text += text;
    else this.blocks.push({ type: 'text', text });
  }

  appendThinking(text: string): void {
    this.emitted = true;
    const last = this.blocks.at(-1);
    if (last?.type === 'thinking') last.text += text;
    else this.blocks.push({ type: 'thinking', text });
  }

  setThinkingSignature(signature: string): void {
    const last = this.blocks.at(-1);
    if (last?.type === 'thinking') last.signature = (last.signature ?? '') + signature;
    else this.blocks.push({ type: 'thinking', text: '', signature });
  }

  /** Thinking the provider redacted: kept only to be sent back verbatim. */
  addRedactedThinking(data: string): void {
    this.blocks.push({ type: 'thinking', text: '', signature: data, redacted: true });
  }

  /** Starts a new thinking block even if the previous block was thinking too. */
  startThinkingBlock(): void {
    this.blocks.push({ type: 'thinking', text: '' });
  }

  addToolCall(id: string, name: string, args: Record<string, unknown>): void {
    this.emitted = true;
    this.blocks.push({ type: 'toolCall', id, name, arguments: args });
  }

  hasToolCalls(): boolean {
    return this.blocks.some((block) => block.type === 'toolCall');
  }

  content(): AssistantBlock[] {
    return this.blocks.filter((block) => block.type === 'toolCall' || block.text !== '' || (block.type === 'thinking' && block.signature));
  }
}

export interface ParsedArguments {
  arguments: Record<string, unknown>;
  /** The raw text when the model sent something that is not a JSON object. */
  invalid?: string;
}

export function parseToolArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { arguments: {} };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { arguments: parsed as Record<string, unknown> };
  } catch {
    // fall through: reported as invalid below
  }
  return { arguments: {}, invalid: raw };
}

export function withCost(usage: Usage, cost: ModelCost): Usage {
  if (cost.input === 0 && cost.output === 0) return usage;
  const dollars =
    (usage.input * cost.input +
      usage.output * cost.output +
      (usage.cacheRead ?? 0) * (cost.cacheRead ?? cost.input) +
      (usage.cacheWrite ?? 0) * (cost.cacheWrite ?? cost.input)) /
    1_000_000;
  return { ...usage, cost: dollars };
}

export function finalStopReason(reported: StopReason | undefined, assembler: MessageAssembler): StopReason {
  if (assembler.hasToolCalls() && reported !== 'length') return 'toolUse';
  return reported ?? 'stop';
}
