import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync, writeRawConfig } from '../../source/config/index.js';
import type { GatewayClient } from '../../source/client/index.js';
import { journalRecord, type AcceptedRecord, type OutcomeRecord } from '../../source/queue/index.js';
import { isOutcomeEntry, loadTranscriptSync, RECOVERED_ENTRY } from '../../source/sessions/index.js';
import { startFakeOpenAI, type RecordedRequest } from '../support/fake-openai-server.js';
import type { FakeReply } from '../support/fake-llm-common.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState } from '../support/temp-state.js';

export interface CrashHistoryOptions {
  kills: number;
  /** New messages per round, spread over `sessions` session keys. */
  burst?: number;
  sessions?: number;
  /** Seconds the scripted exec tool runs (`sleep`): the window a kill lands in. */
  toolSeconds?: number;
}

export interface CrashHistoryReport {
  kills: number;
  /** Kills timed to land while a tool call was running. */
  killsDuringTool: number;
  /** Kills timed by acknowledgements, mostly while collect batches were queued or running. */
  killsDuringBurst: number;
  acknowledged: number;
  accepted: number;
  outcomes: Record<string, number>;
  /** Turns that replied to more than one user message (collect batches). */
  batchedReplies: number;
  /** Every broken promise found; empty when the history is sound. */
  violations: string[];
  durationMs: number;
}

/** The journal as a killed gateway left it (a torn last line is skipped). */
export function readJournal(path: string): { accepted: AcceptedRecord[]; outcomes: OutcomeRecord[] } {
  const accepted: AcceptedRecord[] = [];
  const outcomes: OutcomeRecord[] = [];
  if (!existsSync(path)) return { accepted, outcomes };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    let value: unknown;
    // A killed gateway may leave a torn last line until it restarts.
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const record = journalRecord.parse(value);
    if (record.t === 'accepted') accepted.push(record);
    else outcomes.push(record);
  }
  return { accepted, outcomes };
}

/** A model that calls the exec tool once per user turn, then answers in text. */
function scriptedModel(toolSeconds: number, onToolCall: () => void): (request: RecordedRequest) => FakeReply {
  let calls = 0;
  return (request) => {
    const messages = Array.isArray(request.body.messages) ? (request.body.messages as Array<{ role?: string }>) : [];
    if (messages.at(-1)?.role === 'tool') return { text: 'done' };
    calls += 1;
    onToolCall();
    return { toolCalls: [{ id: `call_${calls}_${Date.now()}`, name: 'exec', arguments: { command: `sleep ${toolSeconds}` } }] };
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a real gateway (dist/) against a fake model whose every turn runs a
 * tool, SIGKILLs it `kills` times at random points (while a tool runs, or
 * while collect batches are queued), then lets a clean run finish and checks
 * the history: every acknowledged message has exactly one assistant outcome
 * (a text reply, or a visible failure), none answered twice, none lost.
 */
export async function runCrashHistory(options: CrashHistoryOptions): Promise<CrashHistoryReport> {
  const started = Date.now();
  const burst = options.burst ?? 8;
  const sessions = options.sessions ?? 3;
  const state = makeTempState('claw-crash-');
  let toolCalls = 0;
  const llm = await startFakeOpenAI();
  llm.setDefault(
    scriptedModel(options.toolSeconds ?? 0.3, () => {
      toolCalls += 1;
    }),
  );
  writeRawConfig(state.paths.config, {
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
    agents: { defaults: { model: 'fake/m' } },
    queue: { mode: 'collect', debounceMs: 40, cap: 1000 },
  });
  writeFileAtomicSync(state.paths.execApprovals, JSON.stringify({ version: 1, security: 'full', ask: 'off' }));
  const journalPath = join(state.dir, 'queue', 'inbound.jsonl');
  const acked = new Set<string>();
  const unacked = new Set<string>();
  let next = 0;
  let killsDuringTool = 0;
  let killsDuringBurst = 0;
  let running: GatewayChild | undefined;
  const sessionOf = (id: string): string => `agent:main:crash:direct:s${Number(id.slice(1)) % sessions}`;
  const send = (client: GatewayClient, id: string): Promise<void> => {
    unacked.add(id);
    return client.request('chat.send', { sessionKey: sessionOf(id), text: id, idempotencyKey: id }).then(
      () => {
        acked.add(id);
        unacked.delete(id);
      },
      () => undefined,
    );
  };
  try {
    for (let round = 0; round < options.kills; round += 1) {
      running = await startGatewayChild(state, {});
      const client = await running.connect();
      const ids = [...unacked];
      for (let i = 0; i < burst; i += 1) ids.push(`m${(next += 1)}`);
      const toolsBefore = toolCalls;
      const sends = ids.map((id, i) => sleep(i * 15).then(() => send(client, id)));
      if (round % 2 === 0) {
        const deadline = Date.now() + 5000;
        while (toolCalls === toolsBefore && Date.now() < deadline) await sleep(5);
        await sleep(Math.random() * (options.toolSeconds ?? 0.3) * 1000);
        killsDuringTool += 1;
      } else {
        await sleep(Math.random() * (burst * 15 + 200));
        killsDuringBurst += 1;
      }
      await running.kill9();
      running = undefined;
      await Promise.all(sends);
    }
    running = await startGatewayChild(state, {});
    const client = await running.connect();
    for (const id of [...unacked]) await send(client, id);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { accepted, outcomes } = readJournal(journalPath);
      if (outcomes.length >= accepted.length) break;
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    await running.stop();
    running = undefined;
    return {
      ...checkHistory(state.paths.sessionsDir('main'), journalPath, acked, unacked),
      kills: options.kills,
      killsDuringTool,
      killsDuringBurst,
      durationMs: Date.now() - started,
    };
  } finally {
    await running?.kill9();
    await llm.close();
    state.cleanup();
  }
}

function checkHistory(
  sessionsDir: string,
  journalPath: string,
  acked: Set<string>,
  unacked: Set<string>,
): Omit<CrashHistoryReport, 'kills' | 'killsDuringTool' | 'killsDuringBurst' | 'durationMs'> {
  const violations: string[] = [];
  for (const id of unacked) violations.push(`${id} was never acknowledged, even by the clean run`);
  const { accepted, outcomes } = readJournal(journalPath);
  const outcomeCount = new Map<number, number>();
  const statuses: Record<string, number> = {};
  for (const outcome of outcomes) {
    outcomeCount.set(outcome.seq, (outcomeCount.get(outcome.seq) ?? 0) + 1);
    statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
  }
  const acceptedIds = new Set<string>();
  for (const record of accepted) {
    if (acceptedIds.has(record.messageId)) violations.push(`${record.messageId} was accepted twice`);
    acceptedIds.add(record.messageId);
    const count = outcomeCount.get(record.seq) ?? 0;
    if (count !== 1) violations.push(`${record.messageId} has ${count} journal outcomes`);
  }
  for (const id of acked) if (!acceptedIds.has(id)) violations.push(`${id} was acknowledged but is not in the journal`);

  const users = new Map<string, number>();
  const answered = new Map<string, number>();
  let batchedReplies = 0;
  for (const name of readdirSync(sessionsDir).filter((n) => n.endsWith('.jsonl'))) {
    const { entries } = loadTranscriptSync(join(sessionsDir, name));
    let waiting: string[] = [];
    // A turn that did work (model or tool entries) and then gave way to a new
    // user message without an outcome was dropped, unless a restart noted it
    // would run that message again.
    let worked = false;
    const recovered = new Set<string>();
    for (const entry of entries) {
      if (entry.type === 'message' && entry.role === 'user' && entry.meta?.messageId) {
        if (worked) {
          const dropped = waiting.filter((id) => !recovered.has(id));
          for (const id of dropped) violations.push(`${name}: the turn for ${id} ended with no outcome and the session moved on to ${entry.meta.messageId}`);
          waiting = waiting.filter((id) => recovered.has(id));
          worked = false;
        }
        users.set(entry.meta.messageId, (users.get(entry.meta.messageId) ?? 0) + 1);
        waiting.push(entry.meta.messageId);
        continue;
      }
      if (entry.type === 'custom' && entry.customType === RECOVERED_ENTRY) {
        const id = (entry.data as { messageId?: unknown } | null)?.messageId;
        if (typeof id === 'string') recovered.add(id);
        worked = false;
        continue;
      }
      if (!isOutcomeEntry(entry)) {
        if (entry.type === 'message') worked = true;
        continue;
      }
      if (waiting.length === 0) violations.push(`${name}: an assistant outcome (entry ${entry.id}) answers no new user message: a duplicate reply`);
      if (waiting.length > 1) batchedReplies += 1;
      for (const id of waiting) answered.set(id, (answered.get(id) ?? 0) + 1);
      waiting = [];
      worked = false;
      recovered.clear();
    }
    for (const id of waiting) violations.push(`${id} has no assistant outcome in ${name}`);
  }
  for (const id of acked) {
    if (users.get(id) !== 1) violations.push(`${id} is in the transcripts ${users.get(id) ?? 0} times`);
    if (answered.get(id) !== 1) violations.push(`${id} was answered ${answered.get(id) ?? 0} times`);
  }
  return { acknowledged: acked.size, accepted: accepted.length, outcomes: statuses, batchedReplies, violations };
}
