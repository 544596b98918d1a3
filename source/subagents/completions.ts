import type { TimerHandle } from '../config/index.js';
import type { Deliveries } from './deliveries.js';
import { ANNOUNCE_SKIP, SPAWN_PREFIX } from './messages.js';
import type { ResultRecord, ResultStatus, SpawnedRecord } from './records.js';
import type { RunState } from './run-state.js';
import { resultFromTranscript } from './transcript-result.js';

export interface CompletionsDeps {
  state: RunState;
  deliveries: Deliveries;
  /** Cancels a run that ran past its time limit. */
  timeOut(runId: string): void;
  /** Accepts a child's message again after a restart (a journal duplicate when it was journaled). */
  accept(run: SpawnedRecord): Promise<void>;
  changed(): void;
}

/**
 * How child runs end: the lane's outcome of a child turn becomes a result in
 * the parent's inbox (synchronously, see README.md), a run past its time
 * limit is cancelled, and after a restart every run without a result is
 * settled from its transcript or accepted again.
 */
export class Completions {
  readonly #timeouts = new Map<string, TimerHandle>();

  constructor(private readonly deps: CompletionsDeps) {}

  /**
   * How a child's turn ended, from the lane. Everything up to the inbox
   * append is synchronous: the result is on disk before the journal's own
   * outcome record can be, so no crash can leave a finished child unreported.
   */
  outcome(reply: { messageId: string; status: string; text: string }): { delivered: boolean } {
    if (!reply.messageId.startsWith(SPAWN_PREFIX)) return { delivered: true };
    const { state } = this.deps;
    const run = state.ledger.get(reply.messageId.slice(SPAWN_PREFIX.length));
    if (!run || state.resultOf(run)) return { delivered: true };
    const cancel = state.ledger.cancel(run.runId);
    const status: ResultStatus =
      reply.status === 'replied' || reply.status === 'suppressed'
        ? 'done'
        : cancel?.reason === 'timeout'
          ? 'timeout'
          : reply.status === 'aborted'
            ? 'cancelled'
            : 'failed';
    this.#record(run, status, reply.status === 'suppressed' ? '' : reply.text);
    return { delivered: true };
  }

  armTimeout(run: SpawnedRecord): void {
    const { state } = this.deps;
    if (run.timeoutSeconds <= 0 || this.#timeouts.has(run.runId)) return;
    const clock = state.core.clock;
    const left = Math.max(0, run.at + run.timeoutSeconds * 1000 - clock.now());
    this.#timeouts.set(
      run.runId,
      clock.setTimer(() => {
        this.#timeouts.delete(run.runId);
        if (state.resultOf(run)) return;
        this.deps.timeOut(run.runId);
      }, left),
    );
  }

  stop(): void {
    const clock = this.deps.state.core.clock;
    for (const timer of this.#timeouts.values()) clock.clearTimer(timer);
    this.#timeouts.clear();
  }

  /**
   * After a restart: a child whose final reply is in its transcript gets its
   * result from there (the crash fell between the reply and the inbox); one
   * whose message never reached the journal is accepted now (the dedupe key
   * makes a second accept a no-op); every inbox then delivers what it owes.
   */
  async recover(): Promise<void> {
    const { state } = this.deps;
    const core = state.core;
    for (const run of state.ledger.all()) {
      if (state.resultOf(run)) continue;
      try {
        const session = await core.sessions.open(run.childKey);
        const found = session.isAnswered(run.messageId) ? resultFromTranscript(session.entries(), run.messageId) : undefined;
        if (found) this.#record(run, found.status, found.text);
        else if (!session.hasMessage(run.messageId)) await this.deps.accept(run);
      } catch (error) {
        core.log.warn(`subagents: could not recover child ${run.runId}: ${String(error)}`);
      }
    }
    for (const inbox of state.inboxes.values()) this.deps.deliveries.flush(inbox);
  }

  #record(run: SpawnedRecord, status: ResultStatus, text: string): void {
    const { state } = this.deps;
    const clock = state.core.clock;
    const now = clock.now();
    const result: ResultRecord = {
      t: 'result',
      runId: run.runId,
      childKey: run.childKey,
      label: run.label,
      status,
      text,
      ...(text.trim() === ANNOUNCE_SKIP ? { skipped: true } : {}),
      tokens: state.tokens(run.childKey),
      durationMs: Math.max(0, now - run.at),
      at: now,
    };
    const inbox = state.inbox(run.parentKey);
    inbox.append(result);
    const timer = this.#timeouts.get(run.runId);
    if (timer) clock.clearTimer(timer);
    this.#timeouts.delete(run.runId);
    this.deps.changed();
    this.deps.deliveries.flush(inbox);
  }
}
