import { configSchema, type ClawConfigInput, type FileOps } from '../../source/config/index.js';
import type { AgentEventPayload, ChatEventPayload } from '../../source/protocol/index.js';
import { LaneQueue, type OutcomeStatus, type QueueMode, type QueuedMessage, type TurnEmitter, type TurnRunner } from '../../source/queue/index.js';
import { SessionRegistry } from '../../source/sessions/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

export interface LaneHarness {
  state: TempState;
  clock: ManualClock;
  lanes: LaneQueue;
  registry: SessionRegistry;
  outcomes: Array<{ messageId: string; status: OutcomeStatus; reason?: string; turnRunId?: string }>;
  chat: ChatEventPayload[];
  agent: AgentEventPayload[];
  send(id: string, options?: { key?: string; mode?: QueueMode }): ReturnType<LaneQueue['enqueue']>;
  message(id: string, options?: { key?: string; mode?: QueueMode }): QueuedMessage;
  userTexts(key?: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Real lanes over a real session registry in a temp dir, with a manual clock. */
export function laneHarness(runner: TurnRunner, queue: NonNullable<ClawConfigInput['queue']> = {}, options: { fs?: FileOps } = {}): LaneHarness {
  const state = makeTempState();
  const config = configSchema.parse({ queue: { mode: 'followup', ...queue } });
  const clock = new ManualClock();
  const registry = new SessionRegistry({ paths: state.paths, config, clock, ...(options.fs ? { fs: options.fs } : {}) });
  const outcomes: LaneHarness['outcomes'] = [];
  const chat: ChatEventPayload[] = [];
  const agent: AgentEventPayload[] = [];
  const emit = ((event: 'chat' | 'agent', payload: ChatEventPayload | AgentEventPayload) => {
    if (event === 'chat') chat.push(payload as ChatEventPayload);
    else agent.push(payload as AgentEventPayload);
  }) as TurnEmitter;
  let seq = 0;
  const lanes = new LaneQueue({
    config: config.queue,
    runner,
    openSession: async (key) => {
      registry.ensure(key);
      return registry.open(key);
    },
    onOutcome: (m, status, detail) => outcomes.push({ messageId: m.messageId, status, ...detail }),
    emit,
    clock,
  });
  const message = (id: string, options: { key?: string; mode?: QueueMode } = {}): QueuedMessage => {
    seq += 1;
    return {
      seq,
      runId: `run-${id}`,
      messageId: id,
      sessionKey: options.key ?? 'agent:main:main',
      agentId: 'main',
      channel: 'tui',
      text: id,
      mode: options.mode ?? config.queue.mode,
      acceptedAt: clock.now(),
    };
  };
  return {
    state,
    clock,
    lanes,
    registry,
    outcomes,
    chat,
    agent,
    message,
    send: (id, options) => lanes.enqueue(message(id, options)),
    async userTexts(key = 'agent:main:main') {
      const session = await registry.open(key);
      return session.entries().flatMap((e) => (e.type === 'message' && e.role === 'user' ? [e.content] : []));
    },
    async close() {
      await lanes.drain(Date.now());
      await registry.close();
      state.cleanup();
    },
  };
}
