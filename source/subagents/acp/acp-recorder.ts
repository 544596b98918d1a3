import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { TurnContext } from '../../queue/index.js';
import { changeDiff } from '../../tools/index.js';

/** Text deltas reach clients at most this often: a flood of chunks costs a few frames a second, not one each. */
const DELTA_FLUSH_MS = 50;
const OUTPUT_CHARS = 20_000;

interface OpenCall {
  title: string;
  content: ToolCallContent[];
  rawOutput?: unknown;
}

function outputOf(call: OpenCall): string {
  const parts: string[] = [];
  for (const item of call.content) {
    if (item.type === 'diff') parts.push(`--- ${item.path}\n${changeDiff(item.oldText ?? undefined, item.newText)}`);
    else if (item.type === 'content' && item.content.type === 'text') parts.push(item.content.text);
    else if (item.type === 'terminal') parts.push(`[terminal ${item.terminalId}]`);
  }
  if (parts.length === 0 && call.rawOutput !== undefined) parts.push(typeof call.rawOutput === 'string' ? call.rawOutput : JSON.stringify(call.rawOutput));
  const text = parts.join('\n');
  return text.length > OUTPUT_CHARS ? `${text.slice(0, OUTPUT_CHARS)}\n… (${text.length - OUTPUT_CHARS} more characters)` : text;
}

function argumentsOf(input: unknown): Record<string, unknown> {
  if (input && typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  return input === undefined ? {} : { input };
}

/**
 * Turns an agent's `session/update` stream into the child's transcript, as
 * a claw turn would have written it: text before a tool call and the call
 * as an assistant message, its output and diffs as the tool result, the
 * plan as a custom entry, usage in the session's counters. Clients get the
 * same as events, with text deltas batched.
 */
export class AcpRecorder {
  #segment = '';
  #all = '';
  #pending = '';
  #timer: NodeJS.Timeout | undefined;
  readonly #calls = new Map<string, OpenCall>();

  constructor(
    private readonly turn: TurnContext,
    private readonly toolSeen: (title: string) => void,
  ) {}

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') this.#text(update.content.text);
        return;
      case 'tool_call':
        this.#open(update.toolCallId, update.title, update.rawInput, update.content ?? []);
        if (update.status === 'completed' || update.status === 'failed') this.#close(update.toolCallId, update.status === 'failed');
        return;
      case 'tool_call_update': {
        const call = this.#calls.get(update.toolCallId);
        if (!call) {
          if (update.title) this.#open(update.toolCallId, update.title, update.rawInput, []);
          else return;
        }
        const open = this.#calls.get(update.toolCallId)!;
        if (update.title) open.title = update.title;
        if (update.content) open.content = update.content;
        if (update.rawOutput !== undefined) open.rawOutput = update.rawOutput;
        if (update.status === 'completed' || update.status === 'failed') this.#close(update.toolCallId, update.status === 'failed');
        return;
      }
      case 'plan':
        this.turn.session.append({ type: 'custom', customType: 'acp_plan', data: { entries: update.entries } });
        return;
      case 'usage_update': {
        const meta = this.turn.session.meta();
        const cost = update.cost && update.cost.currency === 'USD' ? update.cost.amount : 0;
        this.turn.session.updateMeta({ tokens: { ...meta.tokens, context: update.used }, costUsd: meta.costUsd + cost });
        return;
      }
      default:
        return;
    }
  }

  /** A tool call claw itself refused (a file outside the roots), recorded like the agent's own. */
  refused(id: string, title: string, reason: string): void {
    this.#open(id, title, {}, [{ type: 'content', content: { type: 'text', text: reason } }]);
    this.#close(id, true);
  }

  /** Ends the turn's record: open calls end as interrupted, the last text becomes the reply. */
  finish(note?: string): string {
    this.#flush();
    for (const id of [...this.#calls.keys()]) this.#close(id, true, 'the agent ended its turn before this call finished');
    const reply = `${this.#segment.trim() ? this.#segment : this.#all}${note ? `\n\n${note}` : ''}`;
    this.turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: reply }], stopReason: 'stop' });
    return reply;
  }

  /** Stops the delta timer without writing anything (a failed or aborted turn). */
  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #text(delta: string): void {
    this.#segment += delta;
    this.#all += delta;
    this.#pending += delta;
    this.#timer ??= setTimeout(() => this.#flush(), DELTA_FLUSH_MS);
  }

  #flush(): void {
    this.dispose();
    if (!this.#pending) return;
    const delta = this.#pending;
    this.#pending = '';
    this.turn.emit('chat', { runId: this.turn.runId, sessionKey: this.turn.sessionKey, state: 'delta', delta });
  }

  #open(id: string, title: string, input: unknown, content: ToolCallContent[]): void {
    if (this.#calls.has(id)) return;
    this.#flush();
    this.#calls.set(id, { title, content });
    const text = this.#segment.trim() ? [{ type: 'text' as const, text: this.#segment }] : [];
    this.#segment = '';
    this.turn.session.append({
      type: 'message',
      role: 'assistant',
      content: [...text, { type: 'toolCall', id, name: title, arguments: argumentsOf(input) }],
      stopReason: 'toolUse',
    });
    this.toolSeen(title);
    this.#tool('start', id, title);
  }

  #close(id: string, isError: boolean, why?: string): void {
    const call = this.#calls.get(id);
    if (!call) return;
    this.#calls.delete(id);
    const output = outputOf(call);
    this.turn.session.append({
      type: 'message',
      role: 'toolResult',
      toolCallId: id,
      toolName: call.title,
      content: why ? `${output}${output ? '\n' : ''}[${why}]` : output,
      isError,
    });
    this.#tool('end', id, call.title, isError);
  }

  #tool(phase: 'start' | 'end', toolCallId: string, name: string, isError = false): void {
    this.turn.emit('agent', {
      runId: this.turn.runId,
      sessionKey: this.turn.sessionKey,
      stream: 'tool',
      phase,
      toolCallId,
      name,
      ...(phase === 'end' ? { isError } : {}),
    });
  }
}
