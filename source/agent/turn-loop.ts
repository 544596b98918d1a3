import {
  isProviderError,
  type AssistantBlock,
  type BudgetStop,
  type SpendCharge,
  type ProviderErrorKind,
  type Providers,
  type ProviderEvent,
  type ToolSchema,
  type Usage,
} from '../providers/index.js';
import type { ToolContext, ToolRegistry } from '../tools/index.js';
import { overflowFailure } from './compaction/index.js';
import { ContextOverflow } from './context/index.js';
import type { ContextEngine } from './context/index.js';
import { ReplyStream } from './reply-stream.js';
import { withAttachments } from './tool-media.js';
import { ABORTED_RESULT, runToolRound, type ToolCall } from './tool-round.js';
import type { AgentHooks } from './turn-hooks.js';
import type { HistoryMessage, TurnEvents, TurnInput, TurnOutcome } from './turn-types.js';
import { fenceUntrustedMessages } from './untrusted-messages.js';

export interface TurnLoopContext {
  input: TurnInput;
  providers: Providers;
  registry: ToolRegistry;
  events: TurnEvents;
  model: string;
  fallbacks: readonly string[];
  thinking: NonNullable<TurnInput['session']['thinking']>;
  system: string;
  tools: readonly ToolSchema[];
  /** The tools of each model call when they change during the turn (what tool_search loads); `tools` otherwise. */
  currentTools?: () => readonly ToolSchema[];
  maxIterations: number;
  /** Aborted by the caller's signal or the per-turn timeout. */
  signal: AbortSignal;
  timedOut(): boolean;
  toolContext: Omit<ToolContext, 'signal' | 'onUpdate'>;
  /** Failure hint for errors that are about setup (no key, unknown provider). */
  setupHint(): string;
  /** Accounting, auto-compaction, the tool-result guard and overflow recovery of the session. */
  window?: ContextEngine;
  hooks?: AgentHooks;
  /** The agent's sessions folder: tool-result media is kept under its `media/`. */
  sessionsDir?: string;
  /** Whom the turn's model calls are charged to; the owner's approval raises its `turnAllowance`. */
  charge?: SpendCharge;
}

interface StreamResult {
  content: AssistantBlock[];
  stopReason: 'stop' | 'toolUse' | 'length' | 'aborted' | 'error';
  usage: Usage | undefined;
  model: string;
  suppressed: boolean;
  error?: { message: string; hint?: string; kind?: ProviderErrorKind; windowTokens?: number; budget?: BudgetStop };
}

function toolCallsOf(content: readonly AssistantBlock[]): ToolCall[] {
  return content.flatMap((block) => (block.type === 'toolCall' ? [{ id: block.id, name: block.name, arguments: block.arguments }] : []));
}

function textOf(content: readonly AssistantBlock[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/** The next step after a model call failed before any output, by what failed. */
function failureHint(kind: ProviderErrorKind | undefined, setupHint: () => string): string {
  if (kind === 'not_configured') return setupHint();
  if (kind === 'auth') return 'Once the key is fixed, resend the message or run /retry.';
  // A refusal the failover could not repair is the history's: a retry would send it again.
  if (kind === 'bad_request') return 'Run /compact to rewrite the history, or /new to start over; /retry would send the same history.';
  return 'Try again with /retry, or switch models with /model.';
}

/** What streamed before an abort or a mid-stream failure, so it lands on disk. */
function partialContent(thinking: string, text: string, calls: readonly ToolCall[]): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  if (thinking) blocks.push({ type: 'thinking', text: thinking });
  if (text) blocks.push({ type: 'text', text });
  for (const call of calls) blocks.push({ type: 'toolCall', ...call });
  return blocks;
}

async function streamModel(context: TurnLoopContext, messages: readonly HistoryMessage[]): Promise<StreamResult> {
  const { input, events } = context;
  const base = { runId: input.runId, sessionKey: input.session.key };
  const reply = new ReplyStream((delta) => events.chat({ ...base, state: 'delta', delta }));
  let thinking = '';
  const calls: ToolCall[] = [];
  let usage: Usage | undefined;
  try {
    const stream: AsyncIterable<ProviderEvent> = context.providers.streamTurn({
      model: context.model,
      fallbacks: context.fallbacks,
      system: context.system,
      messages: context.sessionsDir ? await withAttachments(context.sessionsDir, fenceUntrustedMessages(messages)) : fenceUntrustedMessages(messages),
      tools: context.currentTools?.() ?? context.tools,
      thinking: context.thinking,
      signal: context.signal,
      ...(context.charge ? { charge: context.charge } : {}),
      ...(input.outsideSlot ? { outsideSlot: input.outsideSlot } : {}),
    });
    for await (const event of stream) {
      if (event.type === 'text_delta') reply.push(event.text);
      else if (event.type === 'thinking_delta') thinking += event.text;
      else if (event.type === 'tool_call') calls.push({ id: event.id, name: event.name, arguments: event.arguments });
      else if (event.type === 'usage') usage = event.usage;
      else if (event.type === 'retry')
        events.agent({ ...base, stream: 'retry', model: event.model, attempt: event.attempt, delayMs: Math.round(event.delayMs), reason: event.reason });
      else if (event.type === 'done') {
        const suppressed = reply.finish();
        return { content: event.content, stopReason: event.stopReason, usage: event.usage ?? usage, model: event.model, suppressed };
      }
    }
    if (context.signal.aborted) throw context.signal.reason;
    throw new Error('the model stream ended without a final message');
  } catch (error) {
    const content = partialContent(thinking, reply.text, calls);
    if (context.signal.aborted) return { content, stopReason: 'aborted', usage, model: context.model, suppressed: false };
    const message = error instanceof Error ? error.message : String(error);
    const kind = isProviderError(error) ? error.kind : undefined;
    const cutOff = isProviderError(error) && error.afterOutput;
    const windowTokens = isProviderError(error) ? error.windowTokens : undefined;
    const budget = isProviderError(error) ? error.budget : undefined;
    if (budget)
      return { content, stopReason: 'error', usage, model: context.model, suppressed: false, error: { message, hint: budget.hint, kind: 'budget', budget } };
    const failure = {
      // The provider's own message would blame the network settings, which worked until the cut.
      message: cutOff ? `The reply was cut off mid-stream (${error.kind}${error.detail ? `: ${error.detail}` : ''}); what arrived is kept above.` : message,
      hint: cutOff ? 'Run /retry to ask again.' : failureHint(kind, context.setupHint),
      ...(kind ? { kind } : {}),
      ...(windowTokens ? { windowTokens } : {}),
    };
    return { content, stopReason: 'error', usage, model: context.model, suppressed: false, error: failure };
  }
}

/** Asks the owner whether this turn may spend past its ceiling once more; false when they deny or nobody answers. */
async function allowPastCeiling(context: TurnLoopContext, why: string): Promise<boolean> {
  const outcome = await context.toolContext.approvals.request(
    {
      kind: 'spend',
      command: `Let this turn spend past its ceiling: ${why}`,
      binding: `spend:${context.input.runId}`,
      cwd: context.toolContext.workspaceDir,
      envKeys: [],
      reason: 'budgets.turn caps what one turn may spend before the owner says so',
    },
    context.signal,
  );
  return outcome.approved;
}

/**
 * The ReAct loop: stream the model, run the tool calls it asks for, append
 * both, and repeat until it answers with text, fails, is aborted or hits the
 * iteration limit. Every step is on disk before the next one starts.
 */
export async function runTurnLoop(context: TurnLoopContext): Promise<TurnOutcome> {
  const { input, events, window } = context;
  const { session } = input;
  const base = { runId: input.runId, sessionKey: session.key };
  // Taking a steered message may append it at once, so it is only taken
  // after every result of the round is on disk (results must follow their calls).
  const steerPending = (): boolean => input.hasSteered?.() ?? false;
  let iterations = 0;
  let lastModel: string | undefined = context.model;
  let recoveries = 0;
  while (iterations < context.maxIterations) {
    iterations += 1;
    try {
      await window?.beforeModelCall();
    } catch (error) {
      if (!(error instanceof ContextOverflow)) throw error;
      return { status: 'error', text: '', model: lastModel, iterations, error: { message: error.message, hint: error.hint } };
    }
    const history = await session.history();
    const result = await streamModel(context, window ? window.assemble(history) : history);
    lastModel = result.model;
    if (result.usage) {
      events.agent({ ...base, stream: 'usage', usage: result.usage, model: result.model });
      await session.addUsage(result.usage, result.model, result.usage.input + result.usage.output);
    }
    const calls = toolCallsOf(result.content);
    // An empty assistant message is refused by providers on the next call, so
    // a failure before any output leaves only the error event behind.
    const failedEmpty = result.content.length === 0 && (result.stopReason === 'error' || result.stopReason === 'aborted');
    const budget = result.error?.budget;
    if (budget?.ask && context.charge && (await allowPastCeiling(context, result.error?.message ?? ''))) {
      context.charge.turnAllowance = (context.charge.turnAllowance ?? 1) + 1;
      iterations -= 1;
      continue;
    }
    if (budget) {
      const error = { message: result.error?.message ?? 'A budget stopped the turn.', hint: budget.hint, budget: true };
      return { status: 'error', text: '', model: lastModel, iterations, error };
    }
    if (failedEmpty && result.error?.kind === 'context_length' && window) {
      // Recovery steps are finite (compact, then two tighter cuts), so this retry cannot loop.
      if (await window.recoverOverflow()) {
        recoveries += 1;
        iterations -= 1;
        continue;
      }
      const failure = overflowFailure(lastModel ?? context.model, window.window, { stated: result.error.windowTokens, recoveries });
      return { status: 'error', text: '', model: lastModel, iterations, error: failure };
    }
    if (!failedEmpty) {
      await session.append({
        type: 'message',
        role: 'assistant',
        content: result.content,
        model: result.model,
        ...(result.usage ? { usage: result.usage } : {}),
        stopReason: result.stopReason,
        ...(result.error ? { errorMessage: result.error.message } : {}),
      });
    }
    if (result.stopReason === 'aborted' || result.stopReason === 'error') {
      for (const call of calls) {
        await session.append({ type: 'message', role: 'toolResult', toolCallId: call.id, toolName: call.name, content: ABORTED_RESULT, isError: true });
      }
      if (result.stopReason === 'aborted') return { status: context.timedOut() ? 'timeout' : 'aborted', text: '', model: lastModel, iterations };
      const error = result.error && { message: result.error.message, ...(result.error.hint ? { hint: result.error.hint } : {}) };
      return { status: 'error', text: '', model: lastModel, iterations, ...(error ? { error } : {}) };
    }
    if (calls.length === 0) {
      if (result.suppressed) return { status: 'suppressed', text: '', model: lastModel, iterations };
      return { status: 'completed', text: textOf(result.content), model: lastModel, iterations };
    }
    const end = await runToolRound(
      {
        runId: input.runId,
        session,
        registry: context.registry,
        allowed: new Set((context.currentTools?.() ?? context.tools).map((tool) => tool.name)),
        events,
        signal: context.signal,
        toolContext: context.toolContext,
        steerPending,
        ...(window ? { guard: (content: string, toolName: string) => window.ingest(content, toolName) } : {}),
        ...(context.hooks ? { hooks: context.hooks } : {}),
        ...(context.sessionsDir ? { sessionsDir: context.sessionsDir } : {}),
      },
      calls,
    );
    if (end === 'aborted') return { status: context.timedOut() ? 'timeout' : 'aborted', text: '', model: lastModel, iterations };
    for (const message of input.takeSteered?.() ?? []) {
      if (!message.appended) await session.append({ type: 'message', role: 'user', content: message.text });
    }
  }
  return {
    status: 'limit',
    text: '',
    model: lastModel,
    iterations,
    error: {
      message: `The turn stopped after ${context.maxIterations} model calls without a final answer.`,
      hint: 'Send a follow-up to continue, or raise agents.defaults.maxIterations in claw.json.',
    },
  };
}
