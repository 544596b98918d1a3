import type { ToolRegistry, ToolContext, ToolResult } from '../tools/index.js';
import { storeToolMedia } from './tool-media.js';
import type { TurnEvents, TurnSession } from './turn-types.js';
import { blockedToolResult, type AgentHooks } from './turn-hooks.js';

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export const ABORTED_RESULT = 'Aborted: the user stopped the turn before this tool call finished.';
export const SKIPPED_RESULT = 'Skipped due to queued user message.';
const DISPLAY_LIMIT = 4_000;

export interface ToolRoundContext {
  runId: string;
  session: TurnSession;
  registry: ToolRegistry;
  /** Names the policy lets this turn call; anything else is refused like an unknown tool. */
  allowed: ReadonlySet<string>;
  events: TurnEvents;
  signal: AbortSignal;
  toolContext: Omit<ToolContext, 'signal' | 'onUpdate'>;
  /** Checked after each call: when true the remaining calls are skipped. */
  steerPending(): boolean;
  /** Caps a result before it enters the transcript (the context window's tool-result guard). */
  guard?(content: string, toolName: string): string;
  hooks?: AgentHooks;
  /** Where tool-result media is stored (under `media/`); without it media is left to the result's description. */
  sessionsDir?: string;
}

function forDisplay(text: string): string {
  return text.length > DISPLAY_LIMIT ? `${text.slice(0, DISPLAY_LIMIT)}…` : text;
}

function abortedPromise(signal: AbortSignal): { promise: Promise<ToolResult>; dispose(): void } {
  let onAbort: () => void = () => undefined;
  const promise = new Promise<ToolResult>((resolve) => {
    onAbort = () => resolve({ content: ABORTED_RESULT, isError: true });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

async function runOne(context: ToolRoundContext, call: ToolCall): Promise<ToolResult> {
  const { events, runId, session } = context;
  events.agent({ runId, sessionKey: session.key, stream: 'tool', phase: 'start', toolCallId: call.id, name: call.name, args: call.arguments });
  const onUpdate = (text: string): void => {
    events.agent({ runId, sessionKey: session.key, stream: 'tool', phase: 'update', toolCallId: call.id, name: call.name, output: forDisplay(text) });
  };
  let result: ToolResult;
  const blocked = context.allowed.has(call.name)
    ? await context.hooks?.beforeTool({ sessionKey: session.key, runId, tool: call.name, args: call.arguments })
    : undefined;
  if (!context.allowed.has(call.name)) {
    result = { content: `Tool "${call.name}" is not available in this session. Use one of the tools listed in your instructions.`, isError: true };
  } else if (blocked) {
    result = { content: blockedToolResult(blocked.reason), isError: true };
  } else {
    // A tool that ignores its signal must not hold the turn: the race settles
    // on abort and the result on disk says so.
    const aborted = abortedPromise(context.signal);
    try {
      result = await Promise.race([
        context.registry.invoke(call.name, call.arguments, { ...context.toolContext, signal: context.signal, onUpdate }),
        aborted.promise,
      ]);
    } finally {
      aborted.dispose();
    }
    if (context.signal.aborted) result = { content: ABORTED_RESULT, isError: true };
    context.hooks?.afterTool({ sessionKey: session.key, runId, tool: call.name, isError: result.isError === true });
  }
  events.agent({
    runId,
    sessionKey: session.key,
    stream: 'tool',
    phase: 'end',
    toolCallId: call.id,
    name: call.name,
    output: forDisplay(result.content),
    isError: result.isError,
  });
  return result;
}

async function appendResult(context: ToolRoundContext, call: ToolCall, result: ToolResult): Promise<void> {
  const stored = result.media?.length && context.sessionsDir ? await storeToolMedia(context.sessionsDir, result.media) : undefined;
  const content = stored?.notes.length ? [result.content, ...stored.notes].join('\n') : result.content;
  await context.session.append({
    type: 'message',
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: context.guard ? context.guard(content, call.name) : content,
    isError: result.isError,
    ...(result.details ? { details: result.details } : {}),
    ...(stored?.refs.length ? { media: stored.refs } : {}),
  });
}

export type RoundEnd = 'continue' | 'aborted' | 'steered';

/**
 * Runs the calls of one assistant message in order and appends a result for
 * every one of them, whatever happens: an abort or a steered message turns the
 * remaining calls into explanatory error results, so no call is left unpaired.
 */
export async function runToolRound(context: ToolRoundContext, calls: readonly ToolCall[]): Promise<RoundEnd> {
  let end: RoundEnd = 'continue';
  for (const call of calls) {
    if (end === 'continue' && context.signal.aborted) end = 'aborted';
    if (end !== 'continue') {
      await appendResult(context, call, { content: end === 'aborted' ? ABORTED_RESULT : SKIPPED_RESULT, isError: true });
      continue;
    }
    await appendResult(context, call, await runOne(context, call));
    if (context.signal.aborted) end = 'aborted';
    else if (context.steerPending()) end = 'steered';
  }
  return end;
}
