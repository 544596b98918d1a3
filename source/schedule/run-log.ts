import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CronRun, CronRunStatus } from '../protocol/index.js';

/** One line of `cron/runs/<jobId>.jsonl`: a slot started, or how it ended. */
type RunLine =
  | { type: 'started'; scheduledAt: number; startedAt: number; runId?: string; attempt: number }
  | { type: 'dispatched'; scheduledAt: number; runId: string }
  | {
      type: 'finished';
      scheduledAt: number;
      status: CronRunStatus;
      finishedAt: number;
      tokens?: number;
      deliveredMessageId?: string;
      error?: string;
      reason?: string;
    };

export type FinishInput = Omit<Extract<RunLine, { type: 'finished' }>, 'type'>;

/**
 * The per-job run log, append-only JSONL. The `started` line is written and
 * fsynced before the turn is handed to the lane: that record is what makes a
 * slot run at most once across a kill -9.
 */
export class RunLog {
  readonly #checked = new Set<string>();

  constructor(private readonly dir: string) {}

  pathOf(jobId: string): string {
    return join(this.dir, `${jobId}.jsonl`);
  }

  started(jobId: string, scheduledAt: number, startedAt: number, attempt: number): void {
    this.#append(jobId, { type: 'started', scheduledAt, startedAt, attempt });
  }

  /** The lane's run id, so a replay of this run after a crash can be recognised. */
  dispatched(jobId: string, scheduledAt: number, runId: string): void {
    this.#append(jobId, { type: 'dispatched', scheduledAt, runId });
  }

  finished(jobId: string, input: FinishInput): void {
    this.#append(jobId, { type: 'finished', ...input });
  }

  /** Every slot of a job, oldest first, folded from its lines. A torn last line is skipped. */
  runs(jobId: string): CronRun[] {
    const path = this.pathOf(jobId);
    if (!existsSync(path)) return [];
    const bySlot = new Map<number, CronRun>();
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let parsed: RunLine;
      try {
        parsed = JSON.parse(line) as RunLine;
      } catch {
        continue;
      }
      const run = bySlot.get(parsed.scheduledAt) ?? { jobId, scheduledAt: parsed.scheduledAt, status: 'running' };
      if (parsed.type === 'started') {
        run.startedAt = parsed.startedAt;
        run.attempt = parsed.attempt;
        if (run.status !== 'running' && parsed.attempt > 1) run.status = 'running';
      } else if (parsed.type === 'dispatched') {
        run.runId = parsed.runId;
      } else {
        run.status = parsed.status;
        run.finishedAt = parsed.finishedAt;
        for (const key of ['tokens', 'deliveredMessageId', 'error', 'reason'] as const) {
          if (parsed[key] !== undefined) (run as Record<string, unknown>)[key] = parsed[key];
        }
      }
      bySlot.set(parsed.scheduledAt, run);
    }
    return [...bySlot.values()].sort((a, b) => a.scheduledAt - b.scheduledAt);
  }

  #append(jobId: string, line: RunLine): void {
    mkdirSync(this.dir, { recursive: true });
    const path = this.pathOf(jobId);
    // A line torn by a crash must not swallow the next record: start on a fresh line.
    const torn = !this.#checked.has(jobId) && existsSync(path) && !readFileSync(path, 'utf8').endsWith('\n') && statSync(path).size > 0;
    this.#checked.add(jobId);
    const fd = openSync(path, 'a', 0o600);
    try {
      writeSync(fd, `${torn ? '\n' : ''}${JSON.stringify(line)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
