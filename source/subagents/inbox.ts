import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DurableLog } from './durable-log.js';
import { inboxRecord, parseWith, type AnnounceRecord, type InboxRecord, type ResultRecord, type YieldRecord } from './records.js';

/** A session key as a file name (keys hold `:` and ids a user chose). */
function fileNameOf(parentKey: string): string {
  return `${Buffer.from(parentKey).toString('base64url')}.jsonl`;
}

function keyOfFile(name: string): string | undefined {
  if (!name.endsWith('.jsonl')) return undefined;
  return Buffer.from(name.slice(0, -'.jsonl'.length), 'base64url').toString();
}

/**
 * One parent session's completion inbox. A child's result is appended here
 * before anything else; an announce (the message that carries results to the
 * parent) is appended before it is accepted, and marked delivered once the
 * parent's inbound path has journaled it. Replaying the file after a crash
 * says exactly what is still owed.
 */
export class ParentInbox {
  readonly results = new Map<string, ResultRecord>();
  readonly yields: YieldRecord[] = [];
  readonly #announces = new Map<string, AnnounceRecord>();
  readonly #announcedRun = new Map<string, string>();
  readonly #delivered = new Set<string>();
  readonly #log: DurableLog<InboxRecord>;

  constructor(
    readonly parentKey: string,
    dir: string,
    warn: (message: string) => void,
  ) {
    this.#log = new DurableLog<InboxRecord>(join(dir, fileNameOf(parentKey)));
    for (const record of this.#log.readSync(parseWith(inboxRecord), warn)) this.#apply(record);
  }

  /** Every parent that has an inbox file in `dir`. */
  static parentsIn(dir: string): string[] {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names.flatMap((name) => keyOfFile(name) ?? []);
  }

  append(record: InboxRecord): void {
    this.#log.appendSync(record);
    this.#apply(record);
  }

  /** Results no announce carries yet, that the parent wants (not ANNOUNCE_SKIP). */
  unannounced(): ResultRecord[] {
    return [...this.results.values()].filter((r) => !r.skipped && !this.#announcedRun.has(r.runId));
  }

  /** Announces written but not yet accepted by the parent (a crash in between, or a refusal to retry). */
  undelivered(): AnnounceRecord[] {
    return [...this.#announces.values()].filter((a) => !this.#delivered.has(a.messageId));
  }

  delivery(runId: string): 'pending' | 'delivered' | 'skipped' | undefined {
    const result = this.results.get(runId);
    if (!result) return undefined;
    if (result.skipped) return 'skipped';
    const messageId = this.#announcedRun.get(runId);
    return messageId && this.#delivered.has(messageId) ? 'delivered' : 'pending';
  }

  /** Children an `all` yield still waits for: their results stay here until the last one reports. */
  heldRuns(): Set<string> {
    const held = new Set<string>();
    for (const y of this.yields) {
      if (y.mode !== 'all') continue;
      if (y.runIds.some((id) => !this.results.has(id))) for (const id of y.runIds) held.add(id);
    }
    return held;
  }

  close(): void {
    this.#log.close();
  }

  #apply(record: InboxRecord): void {
    switch (record.t) {
      case 'result':
        if (!this.results.has(record.runId)) this.results.set(record.runId, record);
        return;
      case 'yield':
        this.yields.push(record);
        return;
      case 'announce':
        this.#announces.set(record.messageId, record);
        for (const id of record.runIds) this.#announcedRun.set(id, record.messageId);
        return;
      case 'delivered':
        this.#delivered.add(record.messageId);
        return;
    }
  }
}
