import { DurableLog } from './durable-log.js';
import { ledgerRecord, parseWith, type CancelRecord, type LedgerRecord, type SpawnedRecord } from './records.js';

/** `subagents/runs.jsonl`: every spawned child (on disk before the spawn is answered and before the child runs) and every cancel asked for. */
export class RunLedger {
  readonly #runs = new Map<string, SpawnedRecord>();
  readonly #byChild = new Map<string, SpawnedRecord>();
  readonly #cancels = new Map<string, CancelRecord>();
  readonly #log: DurableLog<LedgerRecord>;
  readonly #syncing = new Map<string, Promise<void>>();

  constructor(path: string, warn: (message: string) => void) {
    this.#log = new DurableLog<LedgerRecord>(path);
    for (const record of this.#log.readSync(parseWith(ledgerRecord), warn)) this.#apply(record);
  }

  append(record: LedgerRecord): void {
    this.#log.appendSync(record);
    this.#apply(record);
  }

  /**
   * A spawn: known at once, on disk when the promise resolves. Until then the
   * child's turn waits (`durable`), so no child runs on a record a crash could
   * still take back.
   */
  spawned(record: SpawnedRecord): Promise<void> {
    const synced = this.#log.append(record);
    this.#apply(record);
    this.#syncing.set(record.runId, synced);
    const forget = (): void => void this.#syncing.delete(record.runId);
    synced.then(forget, forget);
    return synced;
  }

  /** Resolves once the run's spawn record is on disk (at once for one read back from the file). */
  durable(runId: string): Promise<void> {
    return this.#syncing.get(runId) ?? Promise.resolve();
  }

  get(runId: string): SpawnedRecord | undefined {
    return this.#runs.get(runId);
  }

  /** The latest run of a child session (a `session`-mode child may run again). */
  byChild(childKey: string): SpawnedRecord | undefined {
    return this.#byChild.get(childKey);
  }

  /** A run id or a child session key. */
  find(id: string): SpawnedRecord | undefined {
    return this.#runs.get(id) ?? this.#byChild.get(id);
  }

  cancel(runId: string): CancelRecord | undefined {
    return this.#cancels.get(runId);
  }

  all(): SpawnedRecord[] {
    return [...this.#runs.values()];
  }

  async close(): Promise<void> {
    await this.#log.settled();
    this.#log.close();
  }

  #apply(record: LedgerRecord): void {
    if (record.t === 'spawned') {
      this.#runs.set(record.runId, record);
      this.#byChild.set(record.childKey, record);
    } else if (!this.#cancels.has(record.runId)) {
      this.#cancels.set(record.runId, record);
    }
  }
}
