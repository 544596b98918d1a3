import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ClawError } from '../protocol/index.js';
import { errorCode, nodeFileOps, writeFileAtomicSync, writeFully, type FileOps, systemClock, type Clock } from '../config/index.js';
import { journalRecord, type AcceptedRecord, type JournalRecord, type OutcomeRecord, type OutcomeStatus } from './journal-records.js';

export interface JournalOptions {
  clock?: Pick<Clock, 'now'>;
  /** Duplicates of a message within this window are acknowledged but not run again. */
  dedupeMs?: number;
  /** Off only for benchmarks that measure the cost without it. */
  fsync?: boolean;
  /** Rewrite the file at open when it has more records than this. */
  compactAbove?: number;
  /** The disk as the journal writes to it; tests pass one that fails. */
  fs?: FileOps;
  /**
   * Asked before every acceptance: a reason to refuse (the state dir cannot be
   * written), so nothing is acknowledged that cannot run.
   */
  admit?: () => string | undefined;
}

export interface JournalStats {
  batches: number;
  records: number;
}

/**
 * How long outcome records may sit in the page cache before an fdatasync. No
 * one waits for them, a killed process keeps what it wrote, the next
 * acceptance's sync covers them sooner, and an outcome lost with the machine
 * only means its message is checked again after the restart (a reply in the
 * transcript settles it): one fsync per message instead of two.
 */
const OUTCOME_SYNC_MS = 100;

interface Batch {
  lines: string[];
  /** An acceptance (or flush) waits on this batch: it is synced before its waiters hear. */
  sync: boolean;
  /** Outcome lines: kept for the next flush when this one fails, since no one waits to be told. */
  retry: boolean[];
  waiters: Array<{ resolve(): void; reject(error: Error): void }>;
}

export type AcceptInput = Omit<AcceptedRecord, 't' | 'seq' | 'at'>;

/** The earlier acceptance a duplicate is answered with. */
export type DedupeEntry = Pick<AcceptedRecord, 'seq' | 'at' | 'runId' | 'sessionKey'>;

function dedupeEntry(record: AcceptedRecord): DedupeEntry {
  return { seq: record.seq, at: record.at, runId: record.runId, sessionKey: record.sessionKey };
}

/**
 * The inbound journal: every accepted message is on disk (fsync) before it is
 * acknowledged, and every accepted message gets exactly one outcome. Appends
 * that arrive while an fsync is running are group-committed by the next one.
 */
export class InboundJournal {
  readonly stats: JournalStats = { batches: 0, records: 0 };
  private seq = 0;
  /** Only what a duplicate is answered with: the message texts do not stay in memory for the window. */
  private readonly dedupe = new Map<string, DedupeEntry>();
  private readonly open = new Map<number, AcceptedRecord>();
  private pending: Batch = { lines: [], sync: false, retry: [], waiters: [] };
  private flushing: Promise<void> | undefined;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly dedupeMs: number;
  private readonly ops: FileOps;
  /** Bytes of the file that are complete, durable records. */
  private goodSize: number;
  /** A failed write left a fragment that could not be cut off yet. */
  private torn = false;
  /** The last write failed and left outcome lines to retry with the next one. */
  private retryPending = false;
  /** Outcome lines are written but not yet synced; the timer syncs them. */
  private unsynced = false;
  private syncTimer: NodeJS.Timeout | undefined;
  /** The last write or sync failed (so a flush waiting on unsynced lines stops instead of retrying forever). */
  private syncFailed = false;
  private closed = false;

  private constructor(
    private readonly fd: number,
    readonly path: string,
    private readonly options: JournalOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.dedupeMs = options.dedupeMs ?? 5 * 60_000;
    this.ops = options.fs ?? nodeFileOps;
    this.goodSize = this.ops.fstatSync(fd).size;
  }

  /** Opens (creating) the journal; returns it with the accepted-but-unfinished messages in acceptance order. */
  /**
   * `lost` is true when the file was missing or held lines that are not
   * records (deleted or garbled): its dedupe memory is gone, and the caller
   * should `remember` recent message ids from the transcripts.
   */
  static async open(path: string, options: JournalOptions = {}): Promise<{ journal: InboundJournal; unfinished: AcceptedRecord[]; lost: boolean }> {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (existsSync(path) && statSync(path).isDirectory()) {
      throw new Error(`The inbound journal ${path} is a directory, not a file; move it aside (e.g. \`mv ${path} ${path}.bad\`) and start the gateway again.`);
    }
    const existed = existsSync(path);
    const read = existed
      ? readRecordsSync(path, options.compactAbove ?? 20_000, (options.clock ?? systemClock).now(), options.dedupeMs ?? 5 * 60_000)
      : { records: [], garbled: 0 };
    const records = read.records;
    const fd = (options.fs ?? nodeFileOps).openSync(path, 'a', 0o600);
    const journal = new InboundJournal(fd, path, options);
    for (const record of records) journal.replay(record);
    const unfinished = [...journal.open.values()].sort((a, b) => a.seq - b.seq);
    return { journal, unfinished, lost: !existed || read.garbled > 0 };
  }

  /**
   * Restores dedupe memory the journal lost, from what the transcripts say
   * was received: a re-sent message inside the window is a duplicate again.
   */
  remember(received: ReadonlyArray<{ dedupeKey: string; at: number; sessionKey: string }>): number {
    let count = 0;
    for (const item of [...received].sort((a, b) => a.at - b.at)) {
      if (this.clock.now() - item.at >= this.dedupeMs || this.dedupe.has(item.dedupeKey)) continue;
      this.dedupe.set(item.dedupeKey, { seq: 0, at: item.at, runId: '', sessionKey: item.sessionKey });
      count += 1;
    }
    return count;
  }

  /** The earlier acceptance of the same message, when it is within the dedupe window. */
  lookup(dedupeKey: string): DedupeEntry | undefined {
    this.prune();
    return this.dedupe.get(dedupeKey);
  }

  /**
   * Records the message and resolves once it is durable. The seq (acceptance
   * order) is fixed synchronously, so callers that await in order stay in order.
   */
  accept(input: AcceptInput): Promise<AcceptedRecord> {
    const refusal = this.options.admit?.();
    if (refusal) return Promise.reject(new ClawError('unavailable', refusal));
    this.seq += 1;
    const record: AcceptedRecord = { t: 'accepted', seq: this.seq, at: this.clock.now(), ...input };
    this.prune();
    this.dedupe.set(record.dedupeKey, dedupeEntry(record));
    this.open.set(record.seq, record);
    return this.write(record).then(
      () => record,
      (error: unknown) => {
        this.dedupe.delete(record.dedupeKey);
        this.open.delete(record.seq);
        throw error;
      },
    );
  }

  /** The one outcome of an accepted message; later calls for the same seq are ignored. */
  finish(seq: number, status: OutcomeStatus, extra: { reason?: string; turnRunId?: string } = {}): Promise<void> {
    if (!this.open.has(seq)) return Promise.resolve();
    this.open.delete(seq);
    const record: OutcomeRecord = { t: 'outcome', seq, at: this.clock.now(), status, ...extra };
    return this.write(record, true);
  }

  /** The run of a message accepted under this dedupe key that has no outcome yet (a restart replays it). */
  unfinishedRun(dedupeKey: string): string | undefined {
    for (const record of this.open.values()) if (record.dedupeKey === dedupeKey) return record.runId;
    return undefined;
  }

  isFinished(seq: number): boolean {
    return seq <= this.seq && !this.open.has(seq);
  }

  unfinishedCount(): number {
    return this.open.size;
  }

  /** Resolves when every record written so far is durable; rejects when the disk still refuses. */
  async flush(): Promise<void> {
    while (this.flushing || this.pending.lines.length > 0 || this.unsynced) {
      if (!this.flushing) {
        this.pending.sync = true;
        this.startFlush();
      }
      await this.flushing;
      if (this.retryPending)
        throw new Error(
          `The inbound journal ${this.path} could not be written; ${this.pending.lines.length} outcome record(s) are not on disk and their messages will be checked again after a restart.`,
        );
      if (this.unsynced && this.syncFailed)
        throw new Error(
          `The inbound journal ${this.path} could not be synced to disk; outcomes written since its last sync may not survive a power loss, and their messages would be checked again after a restart. Check the disk holding the state dir.`,
        );
    }
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      clearTimeout(this.syncTimer);
      if (!this.closed) this.ops.closeSync(this.fd);
      this.closed = true;
    }
  }

  private replay(record: JournalRecord): void {
    this.seq = Math.max(this.seq, record.seq);
    if (record.t === 'accepted') {
      this.open.set(record.seq, record);
      if (this.clock.now() - record.at < this.dedupeMs) this.dedupe.set(record.dedupeKey, dedupeEntry(record));
      return;
    }
    this.open.delete(record.seq);
  }

  private write(record: JournalRecord, retry = false): Promise<void> {
    const promise = new Promise<void>((resolve, reject) => {
      this.pending.lines.push(`${JSON.stringify(record)}\n`);
      this.pending.retry.push(retry);
      // Outcomes are the retried lines: only acceptances are synced before they resolve.
      if (!retry) this.pending.sync = true;
      this.pending.waiters.push({ resolve, reject });
    });
    if (!this.flushing) this.startFlush();
    return promise;
  }

  private startFlush(): void {
    const batch = this.pending;
    this.pending = { lines: [], sync: false, retry: [], waiters: [] };
    let kept = 0;
    this.flushing = (async () => {
      try {
        await this.writeBatch(batch.lines.join(''), batch.sync);
        this.retryPending = false;
        this.syncFailed = false;
        this.stats.batches += 1;
        this.stats.records += batch.lines.length;
        for (const waiter of batch.waiters) waiter.resolve();
      } catch (error) {
        // The same answer as the pre-check gives for the same condition: the state dir cannot take it now; retry later.
        const failure = new ClawError(
          'unavailable',
          `Not accepted: the inbound journal ${this.path} could not be written (${errorCode(error)}); nothing in this write was acknowledged. Free disk space or fix permissions of the state dir; the gateway takes messages again by itself once it can write.`,
          { retryable: true },
        );
        for (const waiter of batch.waiters) waiter.reject(failure);
        this.syncFailed = true;
        // Outcomes of messages that already ended go into the next write; the next write is the retry.
        const outcomes = batch.lines.filter((_, i) => batch.retry[i]);
        kept = outcomes.length;
        this.pending.lines.unshift(...outcomes);
        this.pending.retry.unshift(...outcomes.map(() => true));
        this.pending.waiters.unshift(...outcomes.map(() => ({ resolve: () => undefined, reject: () => undefined })));
        this.retryPending = kept > 0;
      }
    })().finally(() => {
      this.flushing = undefined;
      // Only records that arrived meanwhile (or a sync asked for meanwhile) start a write at once; kept outcomes wait for the next one.
      if (this.pending.lines.length > kept || (this.pending.sync && this.unsynced)) this.startFlush();
    });
  }

  /**
   * Appends the bytes in full and makes them durable, or leaves the file as it
   * was: a fragment of a failed write is cut off before anything follows it.
   */
  private async writeBatch(text: string, sync: boolean): Promise<void> {
    const buffer = Buffer.from(text);
    try {
      if (this.torn) {
        await this.ops.ftruncate(this.fd, this.goodSize);
        this.torn = false;
      }
      if (buffer.length > 0) await writeFully(this.ops, this.fd, buffer, this.path);
      const durable = this.options.fsync !== false;
      if (durable && !sync) this.deferSync();
      else if (durable && (buffer.length > 0 || this.unsynced)) {
        await this.ops.fdatasync(this.fd);
        this.unsynced = false;
      }
    } catch (error) {
      try {
        await this.ops.ftruncate(this.fd, this.goodSize);
      } catch {
        this.torn = true;
      }
      throw error;
    }
    this.goodSize += buffer.length;
  }

  /** Outcome lines were written without a sync: one runs within OUTCOME_SYNC_MS unless an acceptance's comes first. */
  private deferSync(): void {
    this.unsynced = true;
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      if (!this.unsynced || this.closed) return;
      this.pending.sync = true;
      if (!this.flushing) this.startFlush();
    }, OUTCOME_SYNC_MS);
    this.syncTimer.unref();
  }

  private prune(): void {
    const cutoff = this.clock.now() - this.dedupeMs;
    for (const [key, record] of this.dedupe) {
      if (record.at >= cutoff) break;
      this.dedupe.delete(key);
    }
  }
}

/**
 * Reads all records; a torn last line (crash mid-append) is dropped. A long
 * file is compacted to what still matters: unfinished messages and those still
 * inside the dedupe window.
 */
function readRecordsSync(path: string, compactAbove: number, now: number, dedupeMs: number): { records: JournalRecord[]; garbled: number } {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const torn = (lines.pop() ?? '').length > 0;
  const records: JournalRecord[] = [];
  let garbled = 0;
  for (const line of lines) {
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      garbled += 1;
      continue;
    }
    const parsed = journalRecord.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else garbled += 1;
  }
  let kept = records;
  if (records.length > compactAbove) {
    const finished = new Set(records.flatMap((r) => (r.t === 'outcome' ? [r.seq] : [])));
    const keepSeq = new Set(records.flatMap((r) => (r.t === 'accepted' && (!finished.has(r.seq) || now - r.at < dedupeMs) ? [r.seq] : [])));
    kept = records.filter((r) => keepSeq.has(r.seq));
    // The highest seq must survive compaction so numbering never goes backwards.
    const last = records[records.length - 1];
    if (last && !keepSeq.has(last.seq)) kept.push(last);
  }
  if (torn || garbled > 0 || kept !== records) writeFileAtomicSync(path, kept.map((r) => `${JSON.stringify(r)}\n`).join(''), 0o600);
  return { records: kept, garbled };
}
