import { randomUUID } from 'node:crypto';
import type { SubagentNode } from '../protocol/index.js';
import { STEER_PREFIX } from './messages.js';
import type { SpawnedRecord } from './records.js';
import type { RunState } from './run-state.js';
import { SpawnError, type SpawnAccepted } from './spawner.js';

/** Thrown for a run id or key the caller may not see, or that does not exist. */
export class SubagentNotFound extends Error {
  override readonly name = 'SubagentNotFound';
}

export interface ControlDeps {
  state: RunState;
  /** A finished `session`-mode child's next run. */
  rerun(run: SpawnedRecord, message: string): Promise<SpawnAccepted>;
  changed(): void;
}

/** What a parent (or the operator) does to running children: cancel, steer, wait for them. */
export class ChildControl {
  constructor(private readonly deps: ControlDeps) {}

  /** Cancels a child run; `callerKey` (a parent) may only cancel its own descendants. */
  cancel(id: string, callerKey?: string, reason: 'request' | 'parent' | 'timeout' = 'request'): { cancelled: boolean; node: SubagentNode } {
    const { state } = this.deps;
    const run = this.visibleRun(id, callerKey);
    if (state.resultOf(run)) return { cancelled: false, node: state.node(run) };
    if (!state.ledger.cancel(run.runId)) state.ledger.append({ t: 'cancel', runId: run.runId, reason, at: state.core.clock.now() });
    state.core.lanes.abort(run.childKey);
    this.deps.changed();
    return { cancelled: true, node: state.node(run) };
  }

  /** A running child reads `message` at its next tool boundary; a finished `session`-mode child runs again with it. */
  async steer(id: string, message: string, callerKey?: string): Promise<{ node: SubagentNode; status: 'steered' | 'restarted' }> {
    const { state } = this.deps;
    const run = this.visibleRun(id, callerKey);
    if (state.resultOf(run)) {
      if (run.mode !== 'session')
        throw new SpawnError(
          `Child "${run.label}" (${run.runId}) has finished and was spawned with mode "run"; spawn a new child with sessions_spawn instead.`,
        );
      const again = await this.deps.rerun(run, message);
      return { node: state.node(state.ledger.get(again.runId)!), status: 'restarted' };
    }
    await state.core.inbound.accept({
      channel: 'subagent',
      sessionKey: run.childKey,
      messageId: `${STEER_PREFIX}${run.runId}:${randomUUID()}`,
      text: `[message from the parent session ${run.parentKey}]\n${message}`,
      peer: { kind: 'direct', id: run.parentKey },
      senderName: 'parent',
      queueMode: 'steer',
    });
    return { node: state.node(run), status: 'steered' };
  }

  /** The parent ends its turn: with `all`, its running children's results are held and arrive as one message. */
  yieldFor(parentKey: string, mode: 'all' | 'any'): { runIds: string[]; labels: string[] } {
    const { state } = this.deps;
    const running = state.runningChildren(parentKey);
    if (running.length === 0) throw new SpawnError('This session has no running children to wait for; answer with what you have.');
    const runIds = running.map((run) => run.runId);
    state.inbox(parentKey).append({ t: 'yield', id: randomUUID(), mode, runIds, at: state.core.clock.now() });
    return { runIds, labels: running.map((run) => run.label) };
  }

  /** A parent turn that was aborted takes the children it spawned with it (`subagents.cancelWithParent`). */
  cancelWithParent(parentKey: string, parentRunId: string): void {
    for (const run of this.deps.state.runningChildren(parentKey)) if (run.parentRunId === parentRunId) this.cancel(run.runId, undefined, 'parent');
  }

  visibleRun(id: string, callerKey: string | undefined): SpawnedRecord {
    const { ledger } = this.deps.state;
    const run = ledger.find(id);
    if (!run) throw new SubagentNotFound(`No child run "${id}". List the children with subagents {"action":"list"}.`);
    if (callerKey !== undefined) {
      let ancestor: SpawnedRecord | undefined = run;
      while (ancestor && ancestor.parentKey !== callerKey) ancestor = ledger.byChild(ancestor.parentKey);
      if (!ancestor) throw new SubagentNotFound(`Run "${id}" is not a child of this session. List yours with subagents {"action":"list"}.`);
    }
    return run;
  }
}
