import type { ContextThresholds } from '../context/index.js';

/** `meta.synthetic` of the flush turn's prompt, so views can tell it from user text. */
export const MEMORY_FLUSH_SYNTHETIC = 'memory_flush';

export interface MemoryFlushState {
  enabled: boolean;
  used: number;
  thresholds: Pick<ContextThresholds, 'flush'>;
  /** Compactions the session has had. */
  compactionCount: number;
  /** The compaction count at the last flush; undefined when none ran yet. */
  memoryFlushCompactionCount: number | undefined;
}

/**
 * Whether a silent flush turn is due: past the flush mark and not yet done in
 * this compaction cycle (a cycle ends with the next compaction).
 */
export function memoryFlushDue(state: MemoryFlushState): boolean {
  return state.enabled && state.used >= state.thresholds.flush && state.memoryFlushCompactionCount !== state.compactionCount;
}

/** `memory/YYYY-MM-DD.md` for the local date at `now`. */
export function memoryNotePath(now: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(now));
  const get = (type: string): string => parts.find((part) => part.type === type)?.value ?? '';
  return `memory/${get('year')}-${get('month')}-${get('day')}.md`;
}

/** The instruction of the silent flush turn; its NO_REPLY is swallowed like any other. */
export function memoryFlushPrompt(now: number, timeZone?: string): string {
  const path = memoryNotePath(now, timeZone);
  return [
    'Pre-compaction memory flush (automatic; the user does not see this turn).',
    'The conversation is close to the context limit and older parts will soon be summarised.',
    `Append anything durable from this session to ${path} in your workspace (create the file and the memory/ folder if needed; never overwrite what is there): decisions made, open TODOs, user preferences and facts, exact identifiers (paths, URLs, ids) you will need later.`,
    'Use your file tools to do it, then reply with exactly NO_REPLY. If there is nothing worth keeping, just reply NO_REPLY.',
  ].join('\n');
}
