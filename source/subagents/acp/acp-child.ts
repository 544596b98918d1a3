import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { ClawConfig } from '../../config/index.js';
import type { TurnContext, TurnOutcome } from '../../queue/index.js';
import { confinePath, hiddenPaths, type ApprovalGate } from '../../tools/index.js';
import type { SpawnedRecord } from '../records.js';
import type { Confine } from './acp-launch.js';
import { answerWord, describePermission, pickOption } from './acp-permission.js';
import { launchOf } from './acp-launch.js';
import { AcpProcess, STOP_TIMINGS, yieldingStream, type StopTimings } from './acp-process.js';
import { AcpRecorder } from './acp-recorder.js';

export interface AcpChildDeps {
  config(): ClawConfig;
  workspaceDir(agentId: string): string;
  approvals(sessionKey: string): ApprovalGate;
  /** What the tree shows as the child's last tool. */
  toolSeen(sessionKey: string, title: string): void;
  /** The exec sandbox around `file args…`, or why there is none here (tools.confine). */
  confine: Confine;
  /** The environment an agent process inherits (PATH, HOME, …) before its configured env. */
  baseEnv: NodeJS.ProcessEnv;
  /** The state dir: no root opens it to the agent, as for claw's own fs tools (the workspace inside it excepted). */
  stateDir: string;
  stopTimings?: StopTimings;
}

/** The agent name of an `acp:<name>` runtime. */
export function acpAgentName(run: SpawnedRecord): string | undefined {
  return run.runtime?.startsWith('acp:') ? run.runtime.slice(4) : undefined;
}

/** Marks, in the child's transcript, that the agent was given this turn's messages: seen again after a restart, the run was interrupted. */
const STARTED = 'acp_started';

function startedBefore(turn: TurnContext): boolean {
  const ids = new Set(turn.messages.map((m) => m.messageId));
  return turn.session.entries().some((e) => {
    if (e.type !== 'custom' || e.customType !== STARTED) return false;
    const started = (e.data as { messageIds?: unknown } | null)?.messageIds;
    return Array.isArray(started) && started.some((id) => ids.has(id as string));
  });
}

/**
 * An authentication the agent offers through variables its environment
 * already holds (`OPENAI_API_KEY` in acp.agents.<name>.env, say): agents
 * such as codex-acp refuse `session/new` until the client picks one.
 */
function envAuthMethod(methods: unknown, env: Readonly<Record<string, string>>): string | undefined {
  if (!Array.isArray(methods)) return undefined;
  for (const method of methods as Array<{ id?: unknown; type?: unknown; vars?: unknown }>) {
    if (method.type !== 'env_var' || typeof method.id !== 'string' || !Array.isArray(method.vars)) continue;
    const names = (method.vars as Array<{ name?: unknown }>).map((v) => v.name);
    if (names.length > 0 && names.every((n) => typeof n === 'string' && Boolean(env[n]))) return method.id;
  }
  return undefined;
}

/** An "authentication required" refusal, with what would satisfy it. */
function authHint(error: unknown, name: string, methods: unknown): unknown {
  if ((error as { code?: unknown }).code !== -32000 || !Array.isArray(methods) || methods.length === 0) return error;
  const offered = (methods as Array<{ id?: unknown; type?: unknown; vars?: Array<{ name?: unknown }> }>).map((m) =>
    m.type === 'env_var' && Array.isArray(m.vars)
      ? `${m.vars.map((v) => String(v.name)).join(' + ')} in acp.agents.${name}.env`
      : `"${String(m.id)}" (log in with the agent's own CLI)`,
  );
  return new Error(`it needs authentication: ${offered.join(', or ')}`);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One turn of a child that is an external coding agent: the agent process is
 * started inside the exec sandbox, initialised and given the turn's messages
 * as one prompt over the Agent Client Protocol (stdio, the official SDK).
 * What it does becomes the child's transcript and tool events, its
 * permission requests claw approval requests showing what will run, and its
 * file reads and writes go through claw's fs confinement (the workspace,
 * `cwd` and tools.fsRoots). However the agent behaves, the turn ends and
 * the agent's whole process tree is gone within the stop timings.
 */
export async function runAcpTurn(turn: TurnContext, run: SpawnedRecord, name: string, deps: AcpChildDeps): Promise<TurnOutcome> {
  const config = deps.config();
  const settings = config.acp.agents[name];
  if (!settings) {
    return { status: 'failed', error: `No ACP agent "${name}" is configured.`, hint: `Add it under acp.agents.${name} {command, args} in claw.json.` };
  }
  if (startedBefore(turn)) {
    return {
      status: 'failed',
      error: `External agent "${name}" was interrupted by a gateway restart; it is not run again on its own, since it may have done part of the task.`,
      hint: 'Look at what it changed, then spawn it again with what is left to do.',
    };
  }
  const workspace = deps.workspaceDir(run.agentId);
  const cwd = settings.cwd ?? workspace;
  const roots = [cwd, ...config.tools.fsRoots];
  const hidden = hiddenPaths(deps.stateDir, config.tools.exec.sandbox.hiddenPaths);
  const gate = deps.approvals(run.childKey);
  const launch = await launchOf(name, settings, { cwd, roots, workspace, env: { ...deps.baseEnv, ...settings.env } }, deps, gate, turn.signal);
  if ('refused' in launch) return { status: 'failed', error: launch.refused };
  // Loaded at the first ACP turn: most gateways never run an external agent.
  const { client: acpClient, ndJsonStream, PROTOCOL_VERSION, RequestError } = await import('@agentclientprotocol/sdk');
  const agentProcess = new AcpProcess(launch);
  const recorder = new AcpRecorder(turn, (title) => deps.toolSeen(turn.sessionKey, title));
  // What claw refused the agent, and what the operator denied it: said in the result too, whatever the agent reports.
  const refused: string[] = [];
  const denied: string[] = [];
  let sessionId: string | undefined;
  const confined = (action: 'read' | 'write', path: string): string => {
    try {
      return confinePath(path, cwd, roots, hidden);
    } catch (error) {
      refused.push(`${action} ${path}: ${reason(error)}`);
      recorder.refused(`refused-${refused.length}`, `refused: ${action} ${path}`, reason(error));
      deps.toolSeen(turn.sessionKey, `refused: ${action} ${path}`);
      throw new RequestError(-32602, `claw refused to ${action} ${path}: ${reason(error)}`);
    }
  };
  const ours = (params: { sessionId: string }): void => {
    if (params.sessionId !== sessionId) throw RequestError.sessionNotFound(params.sessionId);
  };
  const app = acpClient({ name: 'claw' })
    .onNotification('session/update', ({ params }) => {
      // Another session's update (or one before ours exists) is not this child's.
      if (sessionId === undefined || params.sessionId !== sessionId) return;
      turn.progress();
      recorder.update(params.update);
    })
    .onRequest('session/request_permission', async ({ params, signal }) => {
      ours(params);
      const view = describePermission(name, params, cwd);
      const options = params.options;
      if (gate.approvedForSession('acp', view.binding)) return selected(pickOption(options, true, true));
      const outcome = await gate.request(
        {
          kind: 'acp',
          command: view.command,
          binding: view.binding,
          cwd: view.cwd,
          envKeys: [],
          reason: `external agent "${name}" asks to ${params.toolCall.title}`,
        },
        AbortSignal.any([signal, turn.signal]),
      );
      if (!outcome.approved) denied.push(`"${params.toolCall.title ?? params.toolCall.toolCallId}" ${answerWord(outcome)}`);
      return selected(pickOption(options, outcome.approved, outcome.decision === 'always' || outcome.decision === 'session'));
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      ours(params);
      const lines = readFileSync(confined('read', params.path), 'utf8').split('\n');
      const start = Math.max(0, (params.line ?? 1) - 1);
      const end = params.limit ? start + params.limit : lines.length;
      return { content: lines.slice(start, end).join('\n') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      ours(params);
      const target = confined('write', params.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, params.content);
      return {};
    });
  try {
    await agentProcess.spawned;
    const { child } = agentProcess;
    const stream = ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      yieldingStream(Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
    );
    const ended = new Promise<never>((_, reject) => {
      void agentProcess.exited.then(() => reject(new Error(`the agent exited (${child.exitCode ?? child.signalCode}) before ending its turn`)));
    });
    const timings = deps.stopTimings ?? STOP_TIMINGS;
    // Cancelled: the agent gets session/cancel and a grace period to end its turn; one that does not is stopped anyway.
    const abandoned = new Promise<never>((_, reject) => {
      const giveUp = (): void => void setTimeout(() => reject(new Error('the agent did not end its turn after session/cancel')), timings.graceMs).unref();
      if (turn.signal.aborted) giveUp();
      else turn.signal.addEventListener('abort', giveUp, { once: true });
    });
    // Either may reject after the race is decided; that is not an error of anyone's.
    ended.catch(() => undefined);
    abandoned.catch(() => undefined);
    const stopReason = await Promise.race([
      ended,
      abandoned,
      app.connectWith(stream, async (agent) => {
        const init = await agent.request('initialize', {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
        });
        const method = envAuthMethod(init.authMethods, launch.env);
        if (method) await agent.request('authenticate', { methodId: method });
        sessionId = (
          await agent.request('session/new', { cwd, mcpServers: [] }).catch((error: unknown) => {
            throw authHint(error, name, init.authMethods);
          })
        ).sessionId;
        // Cancelled while starting: the prompt is never sent.
        if (turn.signal.aborted) return 'cancelled';
        const cancel = (): void => void agent.notify('session/cancel', { sessionId: sessionId! }).catch(() => undefined);
        turn.signal.addEventListener('abort', cancel, { once: true });
        try {
          turn.session.append({ type: 'custom', customType: STARTED, data: { messageIds: turn.messages.map((m) => m.messageId), agent: name } });
          const prompt = turn.messages.map((m) => m.text).join('\n\n');
          return (await agent.request('session/prompt', { sessionId: sessionId!, prompt: [{ type: 'text', text: prompt }] })).stopReason;
        } finally {
          turn.signal.removeEventListener('abort', cancel);
        }
      }),
    ]);
    if (turn.signal.aborted) return aborted(name, turn.signal);
    if (stopReason === 'cancelled' && denied.length > 0) {
      recorder.finish(`[claw: ${denied.join('; ')}]`);
      return { status: 'failed', error: `External agent "${name}" stopped: ${denied.join('; ')}.` };
    }
    if (stopReason === 'cancelled') return { status: 'aborted', error: `external agent "${name}" cancelled its turn itself` };
    const notes = [
      ...(refused.length > 0 ? [`claw refused ${refused.length} file access(es) by "${name}": ${refused.join('; ')}`] : []),
      ...(denied.length > 0 ? [`the operator denied: ${denied.join('; ')}`] : []),
    ];
    const text = recorder.finish(notes.length > 0 ? `[${notes.join('. ')}]` : undefined);
    turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text });
    return { status: 'replied', text };
  } catch (error) {
    if (turn.signal.aborted) return aborted(name, turn.signal);
    const stderr = agentProcess.stderrTail();
    return {
      status: 'failed',
      error: `External agent "${name}" failed: ${reason(error)}${stderr ? ` (stderr: ${stderr})` : ''}`,
      hint: `Check acp.agents.${name} in claw.json: the command must speak the Agent Client Protocol on stdio.`,
    };
  } finally {
    recorder.dispose();
    await agentProcess.stop(deps.stopTimings ?? STOP_TIMINGS);
  }
}

function selected(optionId: string | undefined): { outcome: { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' } } {
  return optionId ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } };
}

function aborted(name: string, signal: AbortSignal): TurnOutcome {
  const why = typeof signal.reason === 'string' ? ` (${signal.reason})` : '';
  return { status: 'aborted', error: `external agent "${name}" was cancelled${why}` };
}
