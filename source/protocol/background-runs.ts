import type { HeartbeatAgentStatus } from './methods/schedule.js';
import type { TranscriptEntry } from './transcript.js';

/**
 * Background runs (a heartbeat, a cron system event) live in the session's
 * transcript like any turn, so the model keeps its context, but the owner did
 * not ask for them: chat views leave their messages out and show only what a
 * run announced (a `run_notice` entry). A run that ended quietly gets a
 * `quiet_run` entry, and the model stops seeing it too, so idle heartbeats do
 * not pile up in every later prompt.
 */
/** `spend`: a cap's warning or a runaway pause, told in the owner's main chat. */
export const BACKGROUND_SOURCES = ['heartbeat', 'cron', 'spend'] as const;
export type BackgroundSource = (typeof BACKGROUND_SOURCES)[number];

export const QUIET_RUN = 'quiet_run';
export const RUN_NOTICE = 'run_notice';

export interface QuietRunData {
  /** The messageId of the run's prompt. */
  messageId: string;
}

export interface RunNoticeData {
  source: BackgroundSource;
  text: string;
  runId: string;
}

type CustomEntryInput = Pick<Extract<TranscriptEntry, { type: 'custom' }>, 'type' | 'customType' | 'data'>;

export function quietRunEntry(messageId: string): CustomEntryInput {
  return { type: 'custom', customType: QUIET_RUN, data: { messageId } satisfies QuietRunData };
}

export function runNoticeEntry(data: RunNoticeData): CustomEntryInput {
  return { type: 'custom', customType: RUN_NOTICE, data };
}

/** The notice a `run_notice` entry carries, or undefined for any other entry. */
export function runNotice(entry: TranscriptEntry): RunNoticeData | undefined {
  if (entry.type !== 'custom' || entry.customType !== RUN_NOTICE) return undefined;
  const data = entry.data as Partial<RunNoticeData> | null;
  if (typeof data?.text !== 'string' || typeof data.runId !== 'string') return undefined;
  const source = BACKGROUND_SOURCES.find((known) => known === data.source) ?? 'heartbeat';
  return { source, text: data.text, runId: data.runId };
}

function backgroundPromptId(entry: TranscriptEntry): string | undefined {
  if (entry.type !== 'message' || entry.role !== 'user') return undefined;
  const synthetic = entry.meta?.synthetic;
  if (!BACKGROUND_SOURCES.some((source) => source === synthetic)) return undefined;
  return entry.meta?.messageId ?? entry.id;
}

/**
 * Ids of the message entries of background runs: each run is its prompt and
 * every message after it up to the next user message that is not another
 * background prompt. `include` narrows it to some runs (by prompt messageId).
 */
export function backgroundMessageIds(entries: readonly TranscriptEntry[], include: (promptId: string) => boolean = () => true): Set<string> {
  const ids = new Set<string>();
  let inRun = false;
  for (const entry of entries) {
    if (entry.type !== 'message') continue;
    const promptId = backgroundPromptId(entry);
    if (promptId !== undefined) inRun = include(promptId);
    else if (entry.role === 'user') inRun = false;
    if (inRun) ids.add(entry.id);
  }
  return ids;
}

/** Prompt messageIds of the runs that ended quietly. */
export function quietRunIds(entries: readonly TranscriptEntry[]): Set<string> {
  const quiet = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== 'custom' || entry.customType !== QUIET_RUN) continue;
    const data = entry.data as Partial<QuietRunData> | null;
    if (typeof data?.messageId === 'string') quiet.add(data.messageId);
  }
  return quiet;
}

/** What a chat view shows: every entry but the messages of background runs. */
export function withoutBackgroundRuns(entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  const hidden = backgroundMessageIds(entries);
  return hidden.size === 0 ? [...entries] : entries.filter((entry) => !hidden.has(entry.id));
}

/** One word (or phrase) for a heartbeat's state, the same in `claw heartbeat status`, `/heartbeat` and the TUI. */
export function heartbeatStateWord(status: Pick<HeartbeatAgentStatus, 'enabled' | 'paused' | 'budgetExhaustedAt' | 'running'>): string {
  if (!status.enabled) return 'off (every: 0)';
  if (status.paused) return 'paused';
  if (status.budgetExhaustedAt !== undefined) return 'stopped for today (budget spent)';
  return status.running ? 'running' : 'on';
}
