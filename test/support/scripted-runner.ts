import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';

/**
 * A TurnRunner the test drives: each turn waits until the test finishes it
 * (or it is aborted). Counts concurrency so tests can check the caps.
 */
export class ScriptedRunner implements TurnRunner {
  readonly turns: TurnContext[] = [];
  active = 0;
  maxActive = 0;
  private readonly pending = new Map<string, (outcome: TurnOutcome) => void>();

  run(turn: TurnContext): Promise<TurnOutcome> {
    this.turns.push(turn);
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    return new Promise<TurnOutcome>((resolve) => {
      const settle = (outcome: TurnOutcome): void => {
        if (!this.pending.delete(turn.runId)) return;
        this.active -= 1;
        resolve(outcome);
      };
      this.pending.set(turn.runId, settle);
      turn.signal.addEventListener('abort', () => settle({ status: 'aborted', error: String(turn.signal.reason) }), { once: true });
    });
  }

  /** Finishes a running turn with a reply written to its transcript. */
  reply(runId: string, text = 'ok'): void {
    const turn = this.turns.find((t) => t.runId === runId);
    if (!turn) throw new Error(`no turn ${runId}`);
    turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
    turn.emit('chat', { runId, sessionKey: turn.sessionKey, state: 'final', text });
    this.pending.get(runId)?.({ status: 'replied', text });
  }

  fail(runId: string, error: string): void {
    this.pending.get(runId)?.({ status: 'failed', error });
  }

  running(): TurnContext[] {
    return this.turns.filter((t) => this.pending.has(t.runId));
  }
}

/** Answers at once, tracking how many turns ran at the same time and what each one answered. */
export class InstantRunner implements TurnRunner {
  active = 0;
  maxActive = 0;
  readonly answered: string[][] = [];

  async run(turn: TurnContext): Promise<TurnOutcome> {
    this.active += 1;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      // Yield so that turns of different sessions overlap like real ones.
      await new Promise((resolve) => setImmediate(resolve));
      const ids = turn.messages.map((m) => m.messageId);
      this.answered.push(ids);
      const text = `done ${ids.join(',')}`;
      turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
      return { status: 'replied', text };
    } finally {
      this.active -= 1;
    }
  }
}
