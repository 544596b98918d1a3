import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { PermissionOption, SessionUpdate } from '@agentclientprotocol/sdk';
import type { ClawConfig } from '../config/index.js';
import type { TurnContext, TurnOutcome } from '../queue/index.js';
import { confinePath, hiddenPaths, type ApprovalGate } from '../tools/index.js';
import type { SpawnedRecord } from './records.js';

export interface AcpChildDeps {
  config(): ClawConfig;
  workspaceDir(agentId: string): string;
  approvals(sessionKey: string): ApprovalGate;
  /** What the tree shows as the child's last tool. */
  toolSeen(sessionKey: string, title: string): void;
  /** The environment an agent process inherits (PATH, HOME, …) before its configured env. */
  baseEnv: NodeJS.ProcessEnv;
  /** The state dir: no root opens it to the agent, as for claw's own fs tools (the workspace inside it excepted). */
  stateDir: string;
}

/** The agent name of an `acp:<name>` runtime. */
export function acpAgentName(run: SpawnedRecord): string | undefined {
  return run.runtime?.startsWith('acp:') ? run.runtime.slice(4) : undefined;
}

function pickOption(options: readonly PermissionOption[], approved: boolean, remember: boolean): string | undefined {
  const order = approved ? (remember ? ['allow_always', 'allow_once'] : ['allow_once', 'allow_always']) : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found.optionId;
  }
  return undefined;
}

function textOfUpdate(update: SessionUpdate): string | undefined {
  if (update.sessionUpdate !== 'agent_message_chunk') return undefined;
  return update.content.type === 'text' ? update.content.text : undefined;
}

/**
 * One turn of a child that is an external coding agent: the agent process is
 * started, initialised and given the turn's messages as one prompt over the
 * Agent Client Protocol (stdio, the official SDK). Its streamed text becomes
 * the child's reply, its tool calls the child's tool events, its permission
 * requests claw approval requests, and its file reads and writes go through
 * claw's fs confinement (the workspace, `cwd` and tools.fsRoots).
 */
export async function runAcpTurn(turn: TurnContext, run: SpawnedRecord, name: string, deps: AcpChildDeps): Promise<TurnOutcome> {
  const config = deps.config();
  const settings = config.acp.agents[name];
  if (!settings) {
    return { status: 'failed', error: `No ACP agent "${name}" is configured.`, hint: `Add it under acp.agents.${name} {command, args} in claw.json.` };
  }
  // Loaded at the first ACP turn: most gateways never run an external agent.
  const { client: acpClient, ndJsonStream, PROTOCOL_VERSION } = await import('@agentclientprotocol/sdk');
  const workspace = deps.workspaceDir(run.agentId);
  const cwd = settings.cwd ?? workspace;
  const roots = [cwd, ...config.tools.fsRoots];
  const hidden = hiddenPaths(deps.stateDir, config.tools.exec.sandbox.hiddenPaths);
  const child = spawn(settings.command, settings.args, { cwd, env: { ...deps.baseEnv, ...settings.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const gate = deps.approvals(run.childKey);
  let text = '';
  const emitTool = (phase: 'start' | 'end', toolCallId: string, title: string, isError = false): void => {
    turn.emit('agent', {
      runId: turn.runId,
      sessionKey: turn.sessionKey,
      stream: 'tool',
      phase,
      toolCallId,
      name: title,
      ...(phase === 'end' ? { isError } : {}),
    });
  };
  const titles = new Map<string, string>();
  // What claw refused the agent: said in the result too, so the parent learns it whatever the agent reports.
  const refused: string[] = [];
  const confined = (action: 'read' | 'write', path: string): string => {
    try {
      return confinePath(path, cwd, roots, hidden);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      refused.push(`${action} ${path}: ${reason}`);
      const title = `refused: ${action} ${path}`;
      deps.toolSeen(turn.sessionKey, title);
      emitTool('start', `refused-${refused.length}`, title);
      emitTool('end', `refused-${refused.length}`, title, true);
      throw error;
    }
  };
  const app = acpClient({ name: 'claw' })
    .onNotification('session/update', ({ params }) => {
      turn.progress();
      const update = params.update;
      const delta = textOfUpdate(update);
      if (delta) {
        text += delta;
        turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'delta', delta });
      } else if (update.sessionUpdate === 'tool_call') {
        titles.set(update.toolCallId, update.title);
        deps.toolSeen(turn.sessionKey, update.title);
        emitTool('start', update.toolCallId, update.title);
      } else if (update.sessionUpdate === 'tool_call_update' && (update.status === 'completed' || update.status === 'failed')) {
        emitTool('end', update.toolCallId, titles.get(update.toolCallId) ?? update.title ?? 'tool', update.status === 'failed');
      }
    })
    .onRequest('session/request_permission', async ({ params, signal }) => {
      const title = params.toolCall.title ?? params.toolCall.toolCallId;
      const outcome = await gate.request(
        { kind: 'acp', command: `${name}: ${title}`, cwd, envKeys: [], reason: `external agent "${name}" asks to ${title}` },
        AbortSignal.any([signal, turn.signal]),
      );
      const optionId = pickOption(params.options, outcome.approved, outcome.decision === 'always' || outcome.decision === 'session');
      return optionId ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      const lines = readFileSync(confined('read', params.path), 'utf8').split('\n');
      const start = Math.max(0, (params.line ?? 1) - 1);
      const end = params.limit ? start + params.limit : lines.length;
      return { content: lines.slice(start, end).join('\n') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      const target = confined('write', params.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, params.content);
      return {};
    });
  try {
    await spawned;
    const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const stopReason = await app.connectWith(stream, async (agent) => {
      await agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
      const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
      const cancel = (): void => void agent.notify('session/cancel', { sessionId }).catch(() => undefined);
      // Cancelled while starting: the prompt is never sent.
      if (turn.signal.aborted) return 'cancelled';
      turn.signal.addEventListener('abort', cancel, { once: true });
      try {
        const prompt = turn.messages.map((m) => m.text).join('\n\n');
        const response = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] });
        return response.stopReason;
      } finally {
        turn.signal.removeEventListener('abort', cancel);
      }
    });
    if (stopReason === 'cancelled' || turn.signal.aborted) return { status: 'aborted', error: `external agent "${name}" was cancelled` };
    if (refused.length > 0) text += `\n\n[claw refused ${refused.length} file access(es) by "${name}": ${refused.join('; ')}]`;
    turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
    turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text });
    return { status: 'replied', text };
  } catch (error) {
    if (turn.signal.aborted) return { status: 'aborted', error: `external agent "${name}" was cancelled` };
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: 'failed',
      error: `External agent "${name}" failed: ${message}${stderr ? ` (stderr: ${stderr.trim().split('\n').slice(-3).join(' | ')})` : ''}`,
      hint: `Check acp.agents.${name} in claw.json: the command must speak the Agent Client Protocol on stdio.`,
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}
