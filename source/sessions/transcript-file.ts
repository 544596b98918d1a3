import { readFileSync } from 'node:fs';
import { errorCode, nodeFileOps, writeFileAtomicSync, writeFullySync, type FileOps } from '../config/index.js';
import {
  assistantMessageEntry,
  compactionEntry,
  customEntry,
  modelChangeEntry,
  toolResultEntry,
  transcriptHeader,
  userMessageEntry,
  type ToolResultEntry,
  type TranscriptEntry,
  type TranscriptHeader,
} from '../protocol/index.js';

export interface TranscriptRepair {
  /** A partial last line (crash mid-append) was dropped. */
  tornTail: boolean;
  /** Lines in the middle that were not valid entries, skipped. */
  skippedLines: number;
  /** Tool calls that had no result and got a synthetic "aborted" one. */
  danglingToolCalls: string[];
}

export interface LoadedTranscript {
  header: TranscriptHeader;
  entries: TranscriptEntry[];
  repair: TranscriptRepair;
}

/** The first line is not a transcript header (garbage, a binary file): nothing in the file can be trusted as this session's. */
export class TranscriptHeaderError extends Error {
  constructor(readonly path: string) {
    super(`${path} has no valid transcript header; move it aside and start the session again with /new.`);
  }
}

export const ABORTED_TOOL_RESULT = 'aborted: the turn ended before this tool returned (abort or gateway restart). Run it again if it is still needed.';

const messageSchemas = { user: userMessageEntry, assistant: assistantMessageEntry, toolResult: toolResultEntry } as const;
const otherSchemas = { model_change: modelChangeEntry, compaction: compactionEntry, custom: customEntry } as const;

/**
 * Validates one parsed line against the schema its type/role names; the same
 * check as the `transcriptEntry` union, without trying every member per line.
 */
function parseEntry(value: unknown): TranscriptEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, role } = value as { type?: unknown; role?: unknown };
  const table: Record<string, { safeParse(v: unknown): { success: true; data: TranscriptEntry } | { success: false } }> =
    type === 'message' ? messageSchemas : otherSchemas;
  const name = type === 'message' ? role : type;
  if (typeof name !== 'string' || !Object.hasOwn(table, name)) return undefined;
  const schema = table[name]!;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * Inserts a synthetic error result right after every assistant entry whose
 * tool calls have no result anywhere in the file, so providers always see
 * call/result pairs.
 */
function repairDanglingToolCalls(entries: TranscriptEntry[], now: number): { entries: TranscriptEntry[]; repaired: string[] } {
  const answered = new Set<string>();
  for (const entry of entries) if (entry.type === 'message' && entry.role === 'toolResult') answered.add(entry.toolCallId);
  const repaired: string[] = [];
  const out: TranscriptEntry[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i]!;
    out.push(entry);
    if (entry.type !== 'message' || entry.role !== 'assistant') continue;
    const missing = entry.content.flatMap((block) => (block.type === 'toolCall' && !answered.has(block.id) ? [block] : []));
    if (missing.length === 0) continue;
    // Results that do exist for this message come first; the synthetic ones follow them.
    while (i + 1 < entries.length && entries[i + 1]!.type === 'message' && (entries[i + 1] as { role: string }).role === 'toolResult') {
      i += 1;
      out.push(entries[i]!);
    }
    for (const call of missing) {
      const synthetic: ToolResultEntry = {
        id: `repair-${call.id}`,
        parentId: out[out.length - 1]!.id,
        timestamp: now,
        type: 'message',
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: ABORTED_TOOL_RESULT,
        isError: true,
      };
      out.push(synthetic);
      repaired.push(call.id);
    }
    const next = entries[i + 1];
    if (next) entries[i + 1] = { ...next, parentId: out[out.length - 1]!.id };
  }
  return { entries: out, repaired };
}

function serialise(header: TranscriptHeader, entries: readonly TranscriptEntry[]): string {
  return `${[header, ...entries].map((line) => JSON.stringify(line)).join('\n')}\n`;
}

/**
 * Reads a transcript and repairs it on disk when needed: a torn last line is
 * dropped and dangling tool calls get an aborted result; the repaired file
 * replaces the old one atomically so the repair survives the next crash.
 */
export function loadTranscriptSync(path: string, now: number = Date.now()): LoadedTranscript {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  const repair: TranscriptRepair = { tornTail: tail.length > 0, skippedLines: 0, danglingToolCalls: [] };
  const header = transcriptHeader.safeParse(parseLine(lines[0] ?? ''));
  if (!header.success) throw new TranscriptHeaderError(path);
  let entries: TranscriptEntry[] = [];
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.length === 0) continue;
    const entry = parseEntry(parseLine(line));
    if (entry) entries.push(entry);
    else repair.skippedLines += 1;
  }
  const fixed = repairDanglingToolCalls(entries, now);
  entries = fixed.entries;
  repair.danglingToolCalls = fixed.repaired;
  if (repair.tornTail || repair.danglingToolCalls.length > 0) writeFileAtomicSync(path, serialise(header.data, entries), 0o600);
  return { header: header.data, entries, repair };
}

/**
 * What can be saved of a file whose header is bad: every line after it that
 * is a valid entry (dangling tool calls closed, as the loader does), and how
 * many lines were not (the header among them).
 */
export function salvageEntriesSync(path: string, now: number): { entries: TranscriptEntry[]; lost: number } {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const entries: TranscriptEntry[] = [];
  for (const line of lines.slice(1)) {
    const entry = parseEntry(parseLine(line));
    if (entry) entries.push(entry);
  }
  return { entries: repairDanglingToolCalls(entries, now).entries, lost: lines.length - entries.length };
}

/**
 * The entries of a transcript as they are on disk, without repairing or
 * rewriting anything: what a session that keeps only its recent entries in
 * memory reads when older ones are asked for. Lines are skipped exactly as
 * the loader skips them, so the result matches what the loader kept.
 */
export function readEntriesSync(path: string): TranscriptEntry[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.pop();
  const entries: TranscriptEntry[] = [];
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.length === 0) continue;
    const entry = parseEntry(parseLine(line));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** How long appended lines may sit in the page cache before an fdatasync; the inbound journal, not the transcript, is what acknowledgements wait for. */
const SYNC_DELAY_MS = 100;

/**
 * An open transcript for appending. Each append is whole lines in call
 * order, written in full or not at all: a short write is continued, and a
 * failed one is cut back to the last complete line before anything else is
 * appended, so a full disk never leaves a fragment for the next line to land
 * on. A killed process can still tear the last line (the loader drops it).
 * fdatasync runs on the thread pool at most once per SYNC_DELAY_MS per file,
 * never on the event loop.
 */
export class TranscriptAppender {
  private fd: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private dirty = false;
  /** Bytes of the file that are complete lines. */
  private goodSize: number;
  /** A failed write whose fragment could not be cut off yet. */
  private torn = false;

  constructor(
    readonly path: string,
    private readonly ops: FileOps = nodeFileOps,
  ) {
    this.fd = ops.openSync(path, 'a', 0o600);
    this.goodSize = ops.fstatSync(this.fd).size;
  }

  /** Throws (with what to do) when the lines could not be written; the file then holds none of them. */
  append(entries: readonly TranscriptEntry[]): void {
    const fd = this.fd;
    if (fd === undefined) throw new Error(`transcript ${this.path} is closed`);
    const buffer = Buffer.from(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    try {
      if (this.torn) {
        this.ops.ftruncateSync(fd, this.goodSize);
        this.torn = false;
      }
      writeFullySync(this.ops, fd, buffer, this.path);
    } catch (error) {
      this.cutBack(fd);
      throw new Error(
        `The transcript ${this.path} could not be written (${errorCode(error)}); free disk space or fix permissions in the state dir, then send the message again.`,
        { cause: error },
      );
    }
    this.goodSize += buffer.length;
    this.dirty = true;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.sync();
      }, SYNC_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Resolves once everything appended so far is on disk; rejects when the disk refuses the sync. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.syncing || this.dirty) {
      if (this.syncing) {
        await this.syncing;
        continue;
      }
      const failure = await this.sync();
      if (failure)
        throw new Error(`The transcript ${this.path} could not be synced to disk (${errorCode(failure)}); free disk space in the state dir.`, {
          cause: failure,
        });
    }
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      // A file opened again later appends at its end: no fragment may be left there.
      if (this.torn && this.fd !== undefined) this.cutBack(this.fd);
      if (this.fd !== undefined) this.ops.closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private cutBack(fd: number): void {
    try {
      this.ops.ftruncateSync(fd, this.goodSize);
      this.torn = false;
    } catch {
      // Retried before the next append; until then no line may follow the fragment.
      this.torn = true;
    }
  }

  /** Resolves with the error when the sync failed (the lines stay dirty for the next try). */
  private sync(): Promise<unknown> {
    if (this.syncing) return this.syncing;
    const fd = this.fd;
    if (fd === undefined || !this.dirty) return Promise.resolve(undefined);
    this.dirty = false;
    const syncing = this.ops
      .fdatasync(fd)
      .then(
        () => undefined,
        (error: unknown) => {
          this.dirty = true;
          return error;
        },
      )
      .finally(() => {
        this.syncing = undefined;
      });
    this.syncing = syncing.then(() => undefined);
    return syncing;
  }
}
