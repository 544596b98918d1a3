import { silentLogger } from '../../source/config/index.js';
import { Lifecycle } from '../../source/core/index.js';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import { InboundService } from '../../source/core/inbound-service.js';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { InboundJournal, LaneQueue, type AcceptInput, type NewTranscriptEntry, type TurnEmitter } from '../../source/queue/index.js';
import { SessionRegistry } from '../../source/sessions/index.js';
import { InstantRunner } from '../support/scripted-runner.js';
import { startTestGateway } from '../support/gateway-harness.js';
import { describeStatus } from '../../source/cli/commands/status.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const KEY = 'agent:main:main';
let state: TempState | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  state?.cleanup();
  state = undefined;
});

const config = configSchema.parse({ queue: { mode: 'collect', debounceMs: 0 } });

function input(id: string): AcceptInput {
  return { dedupeKey: `tui\u0000${id}`, runId: `run-${id}`, messageId: id, sessionKey: KEY, agentId: 'main', channel: 'tui', text: id, mode: 'collect' };
}

/** What a gateway killed mid-turn leaves: accepted records with no outcome, and a transcript written up to the kill. */
async function crashedState(ids: string[], written: (user: (id: string) => void, append: (...entries: NewTranscriptEntry[]) => void) => void): Promise<void> {
  state = makeTempState();
  const { journal } = await InboundJournal.open(join(state.dir, 'queue', 'inbound.jsonl'));
  for (const id of ids) await journal.accept(input(id));
  await journal.close();
  const registry = new SessionRegistry({ paths: state.paths, config });
  registry.ensure(KEY);
  const session = await registry.open(KEY);
  written(
    (id) => session.append({ type: 'message', role: 'user', content: id, meta: { channel: 'tui', messageId: id } }),
    (...entries) => session.append(...entries),
  );
  await registry.close();
}

/** A restarted gateway: real journal, registry and lanes, the InboundService's recovery. */
async function restart(): Promise<{
  runner: InstantRunner;
  outcomes: Map<string, string[]>;
  /** Messages ended as failed through the outcome path (journal, origin, chat). */
  failures: string[];
  result: Awaited<ReturnType<InboundService['recover']>>;
  entries: () => Promise<readonly TranscriptEntry[]>;
}> {
  const paths = state!.paths;
  const registry = new SessionRegistry({ paths, config });
  const { journal, unfinished } = await InboundJournal.open(join(state!.dir, 'queue', 'inbound.jsonl'));
  const runner = new InstantRunner();
  const outcomes = new Map<string, string[]>();
  const failures: string[] = [];
  const lanes = new LaneQueue({
    config: config.queue,
    runner,
    openSession: (key) => registry.open(key),
    onOutcome: (message, status) => {
      outcomes.set(message.messageId, [...(outcomes.get(message.messageId) ?? []), status]);
      void journal.finish(message.seq, status);
    },
    emit: (() => undefined) as TurnEmitter,
  });
  const inbound = new InboundService({
    config,
    journal,
    lanes,
    sessions: registry,
    lifecycle: new Lifecycle(silentLogger),
    refused: () => undefined,
    accepted: () => undefined,
    sessionChanged: () => undefined,
    redeliver: async () => undefined,
    failed: (message, reason) => {
      failures.push(`${message.messageId}: ${reason}`);
      void journal.finish(message.seq, 'failed', { reason });
    },
    warn: () => undefined,
  });
  closers.push(async () => {
    await lanes.drain(Date.now());
    await registry.close();
    await journal.close();
  });
  const result = await inbound.recover(unfinished);
  return { runner, outcomes, failures, result, entries: async () => (await registry.open(KEY)).entries() };
}

const toolCall: NewTranscriptEntry = {
  type: 'message',
  role: 'assistant',
  content: [{ type: 'toolCall', id: 'c1', name: 'exec', arguments: { command: 'sleep 1' } }],
  stopReason: 'toolUse',
};

describe('crash recovery in a gateway', () => {
  it('a message failed by the crash-loop guard shows in claw status with its session', async () => {
    await crashedState(['m1'], (user, append) => {
      user('m1');
      for (let attempt = 1; attempt <= 3; attempt += 1)
        append(
          { type: 'custom', customType: 'turn_recovered', data: { messageId: 'm1', runId: 'run-m1', attempt } },
          { type: 'custom', customType: 'turn_rerun', data: { messageId: 'm1', runId: 'run-m1' } },
        );
    });
    const gateway = await startTestGateway({ state: state!, core: { runner: new InstantRunner() } });
    closers.push(() => gateway.stop());
    const client = await gateway.connect();
    const status = await client.request('status', {});
    expect(status.recovery?.failed).toEqual([{ sessionKey: KEY, messageId: 'm1' }]);
    const printed = describeStatus({ running: true, source: 'rpc', status }, state!.dir);
    expect(printed).toMatch(/recovery at start \(.*\): 1 message\(s\) failed by the crash-loop guard/);
    expect(printed).toContain(`${KEY} m1`);
  });
});

describe('crash recovery', () => {
  it('a crash while the message only waited in its lane is not counted against it', async () => {
    await crashedState(['m1'], (user, append) => {
      user('m1');
      // Three restarts each found it and queued it again, but the gateway died before its turn started again.
      for (let attempt = 1; attempt <= 3; attempt += 1)
        append({ type: 'custom', customType: 'turn_recovered', data: { messageId: 'm1', runId: 'run-m1', attempt } });
    });
    const { result, failures, outcomes } = await restart();
    expect(result).toMatchObject({ requeued: 1, completed: 0, failed: 0 });
    expect(failures).toEqual([]);
    await vi.waitFor(() => expect(outcomes.get('m1')).toEqual(['replied']));
  });

  it('a kill during a tool call re-runs the message; the repaired "aborted" result is not taken for a reply', async () => {
    await crashedState(['m1'], (user, append) => {
      user('m1');
      append(toolCall);
    });
    const { runner, outcomes, result, entries } = await restart();
    expect(result).toMatchObject({ requeued: 1, completed: 0, failed: 0 });
    await vi.waitFor(() => expect(outcomes.get('m1')).toEqual(['replied']));
    expect(runner.answered).toEqual([['m1']]);
    const kinds = (await entries()).map((e) => (e.type === 'message' ? e.role : e.type === 'custom' ? e.customType : e.type));
    expect(kinds).toEqual(['user', 'assistant', 'toolResult', 'turn_recovered', 'turn_rerun', 'assistant']);
  });

  it('a collect batch the kill interrupted runs again as one turn, answered once', async () => {
    await crashedState(['m1', 'm2', 'm3'], (user) => {
      user('m1');
      user('m2');
      user('m3');
    });
    const { runner, outcomes } = await restart();
    await vi.waitFor(() => expect(outcomes.size).toBe(3));
    expect(runner.answered).toEqual([['m1', 'm2', 'm3']]);
    expect([...outcomes.values()]).toEqual([['replied'], ['replied'], ['replied']]);
  });

  it('messages whose reply is already in the transcript are completed without a turn', async () => {
    await crashedState(['m1', 'm2'], (user, append) => {
      user('m1');
      user('m2');
      append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'both done' }], stopReason: 'stop' });
    });
    const { runner, result } = await restart();
    expect(result).toMatchObject({ requeued: 0, completed: 2, failed: 0 });
    expect(runner.answered).toEqual([]);
  });

  it('a message the gateway died on three times ends as a visible failure instead of a fourth run', async () => {
    await crashedState(['m1'], (user, append) => {
      user('m1');
      // Each restart found it mid-turn and ran it again (a `turn_rerun` note), and it was mid-turn again at the next crash.
      for (let attempt = 1; attempt <= 3; attempt += 1)
        append(
          { type: 'custom', customType: 'turn_recovered', data: { messageId: 'm1', runId: 'run-m1', attempt } },
          { type: 'custom', customType: 'turn_rerun', data: { messageId: 'm1', runId: 'run-m1' } },
          toolCall,
        );
    });
    const { runner, result, entries, failures } = await restart();
    expect(result).toMatchObject({ requeued: 0, completed: 0, failed: 1 });
    // Ended where every outcome ends, so its chat hears it too — once.
    expect(failures).toEqual([expect.stringMatching(/^m1: The gateway stopped 3 times while answering this message/)]);
    expect(runner.answered).toEqual([]);
    const last = (await entries()).at(-1);
    expect(last).toMatchObject({
      type: 'custom',
      customType: 'turn_outcome',
      data: { status: 'failed', error: expect.stringMatching(/stopped 3 times while answering this message/) },
    });
  });
});
