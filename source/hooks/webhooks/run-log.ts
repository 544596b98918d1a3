import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../../config/index.js';

export type WebhookRunStatus = 'accepted' | 'replied' | 'failed' | 'aborted' | 'suppressed' | 'dropped';

export interface WebhookRun {
  runId: string;
  messageId: string;
  route: string;
  sessionKey: string;
  acceptedAt: number;
  status: WebhookRunStatus;
  finishedAt?: number;
  /** The reply (replied) or what went wrong. */
  text?: string;
  /** Where the reply was also delivered, when the mapping asked for it. */
  deliverTo?: { channel: string; to: string };
}

const KEEP = 1_000;

/**
 * What `GET /hooks/runs/<runId>` answers: one line per acceptance and per
 * outcome, replayed at start so a run accepted before a crash is still known
 * after it. The inbound journal stays the source of truth for running it.
 */
export class WebhookRunLog {
  readonly #runs = new Map<string, WebhookRun>();
  readonly #byMessage = new Map<string, string>();

  constructor(private readonly path: string) {
    if (!existsSync(path)) return;
    const lines = readFileSync(path, 'utf8').split('\n');
    for (const line of lines) {
      if (!line) continue;
      try {
        const change = JSON.parse(line) as Partial<WebhookRun> & { runId: string };
        if (change.messageId && !change.runId.startsWith('pending:')) this.#runs.delete(`pending:${change.messageId}`);
        this.#apply(change);
      } catch {
        // a torn last line after a crash
      }
    }
    if (lines.length > KEEP * 3) this.#compact();
  }

  get(runId: string): WebhookRun | undefined {
    return this.#runs.get(runId);
  }

  byMessage(messageId: string): WebhookRun | undefined {
    const runId = this.#byMessage.get(messageId);
    return runId ? this.#runs.get(runId) : undefined;
  }

  /**
   * Written before the message is handed to the journal, so a crash between
   * the two still lets the outcome find its request after the restart.
   */
  receiving(run: Omit<WebhookRun, 'status' | 'runId'>): void {
    this.#record({ ...run, runId: `pending:${run.messageId}`, status: 'accepted' });
  }

  accepted(messageId: string, runId: string): void {
    const pending = this.#runs.get(`pending:${messageId}`);
    if (!pending) return;
    this.#runs.delete(pending.runId);
    this.#record({ ...pending, runId });
  }

  finished(messageId: string, runId: string, status: Exclude<WebhookRunStatus, 'accepted'>, text: string, at: number): WebhookRun | undefined {
    const run = this.byMessage(messageId);
    if (run?.status !== 'accepted') return undefined;
    if (run.runId !== runId && run.runId.startsWith('pending:')) this.accepted(messageId, runId);
    const current = this.byMessage(messageId)!;
    this.#record({ runId: current.runId, status, text, finishedAt: at });
    return this.#runs.get(current.runId);
  }

  #record(change: Partial<WebhookRun> & { runId: string }): void {
    this.#apply(change);
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    appendFileSync(this.path, `${JSON.stringify(change)}\n`, { mode: 0o600 });
  }

  #apply(change: Partial<WebhookRun> & { runId: string }): void {
    const merged = { ...this.#runs.get(change.runId), ...change } as WebhookRun;
    this.#runs.delete(change.runId);
    this.#runs.set(change.runId, merged);
    if (merged.messageId) this.#byMessage.set(merged.messageId, merged.runId);
    while (this.#runs.size > KEEP) {
      const oldest = this.#runs.keys().next().value as string;
      const run = this.#runs.get(oldest);
      this.#runs.delete(oldest);
      if (run) this.#byMessage.delete(run.messageId);
    }
  }

  #compact(): void {
    writeFileAtomicSync(this.path, [...this.#runs.values()].map((run) => `${JSON.stringify(run)}\n`).join(''), 0o600);
  }
}
