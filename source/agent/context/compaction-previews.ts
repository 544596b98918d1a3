import { randomUUID } from 'node:crypto';
import type { Clock } from '../../config/index.js';
import { ClawError, type CompactionPreview } from '../../protocol/index.js';

export type PreviewDecision = 'now' | 'postpone';

/** What an engine tells before an automatic compaction (the rest is filled in here). */
export type PreviewPlan = Omit<CompactionPreview, 'id' | 'deadline'>;

interface Pending {
  preview: CompactionPreview;
  finish: (decision: PreviewDecision, by?: string) => void;
}

/**
 * Automatic compactions waiting out their preview: clients are told what
 * will be summarised and may compact at once or postpone it once; with no
 * answer by the deadline it compacts. One per session at a time.
 */
export class CompactionPreviews {
  readonly #pending = new Map<string, Pending>();

  constructor(
    private readonly clock: Pick<Clock, 'now' | 'setTimer' | 'clearTimer'>,
    private readonly seconds: () => number,
    private readonly emit: {
      requested(preview: CompactionPreview): void;
      resolved(payload: { id: string; sessionKey: string; decision: PreviewDecision; by?: string }): void;
    },
  ) {}

  /** Waits for a decision (or the deadline); at once `now` when previews are off. */
  ask(plan: PreviewPlan, signal?: AbortSignal): Promise<PreviewDecision> {
    const ms = Math.round(this.seconds() * 1000);
    if (ms <= 0 || signal?.aborted) return Promise.resolve('now');
    const preview: CompactionPreview = { ...plan, id: randomUUID(), deadline: this.clock.now() + ms };
    return new Promise((resolve) => {
      let done = false;
      const finish = (decision: PreviewDecision, by?: string) => {
        if (done) return;
        done = true;
        this.#pending.delete(preview.id);
        this.clock.clearTimer(timer);
        signal?.removeEventListener('abort', onAbort);
        this.emit.resolved({ id: preview.id, sessionKey: preview.sessionKey, decision, ...(by ? { by } : {}) });
        resolve(decision);
      };
      const onAbort = () => finish('now', 'aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = this.clock.setTimer(() => finish('now', 'timeout'), ms);
      this.#pending.set(preview.id, { preview, finish });
      this.emit.requested(preview);
    });
  }

  decide(id: string, decision: PreviewDecision, by: string): { id: string; decision: PreviewDecision } {
    const pending = this.#pending.get(id);
    if (!pending) throw new ClawError('not_found', `No compaction preview ${id} is waiting (it may have run already).`);
    pending.finish(decision, by);
    return { id, decision };
  }

  pending(): CompactionPreview[] {
    return [...this.#pending.values()].map((pending) => pending.preview);
  }
}
