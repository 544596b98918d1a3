import { closeSync, fdatasync, openSync, readFileSync, writeSync } from 'node:fs';
import { writeFileAtomicSync } from '../config/index.js';
import {
  transcriptEntry,
  transcriptHeader,
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

export const ABORTED_TOOL_RESULT = 'aborted: the turn ended before this tool returned (abort or gateway restart). Run it again if it is still needed.';

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
  return [header, ...entries].map((line) => JSON.stringify(line)).join('\n') + '\n';
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
  if (!header.success) throw new Error(`${path} has no valid transcript header; move it aside and start the session again with /new.`);
  let entries: TranscriptEntry[] = [];
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.length === 0) continue;
    const parsed = transcriptEntry.safeParse(parseLine(line));
    if (parsed.success) entries.push(parsed.data);
    else repair.skippedLines += 1;
  }
  const fixed = repairDanglingToolCalls(entries, now);
  entries = fixed.entries;
  repair.danglingToolCalls = fixed.repaired;
  if (repair.tornTail || repair.danglingToolCalls.length > 0) writeFileAtomicSync(path, serialise(header.data, entries), 0o600);
  return { header: header.data, entries, repair };
}

/**
 * An open transcript for appending. Each append is one write(2) of whole
 * lines in call order (a crash can tear only the last line, which the loader
 * drops); fdatasync runs on the thread pool, coalesced, never on the event loop.
 */
export class TranscriptAppender {
  private fd: number | undefined;
  private syncing = false;
  private syncAgain = false;
  private readonly idle: Array<() => void> = [];

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a', 0o600);
  }

  append(entries: readonly TranscriptEntry[]): void {
    if (this.fd === undefined) throw new Error(`transcript ${this.path} is closed`);
    writeSync(this.fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    this.scheduleSync();
  }

  /** Resolves once everything appended so far is on disk. */
  flush(): Promise<void> {
    if (!this.syncing) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private scheduleSync(): void {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    const fd = this.fd;
    if (fd === undefined) return;
    this.syncing = true;
    fdatasync(fd, () => {
      this.syncing = false;
      if (this.syncAgain && this.fd !== undefined) {
        this.syncAgain = false;
        this.scheduleSync();
        return;
      }
      for (const resolve of this.idle.splice(0)) resolve();
    });
  }
}
