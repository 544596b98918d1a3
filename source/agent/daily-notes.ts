import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** OpenClaw's AGENTS.md tells the agent today's and yesterday's notes are in its context. */
export const DAILY_NOTE_DAYS = 2;
export const DAILY_NOTE_FILE_MAX_CHARS = 1_200;
export const DAILY_NOTES_TOTAL_MAX_CHARS = 2_800;

const DAY_MS = 86_400_000;
const noteName = /^(\d{4}-\d{2}-\d{2})[^/]*\.md$/;

/** The local calendar day of `ms` as YYYY-MM-DD. */
export function localDay(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The days whose notes are injected at `now`, newest first. */
function recentDays(now: number): string[] {
  // Noon of today, stepped back: a 23- or 25-hour day never skips or repeats a date.
  const noon = new Date(now);
  noon.setHours(12, 0, 0, 0);
  return Array.from({ length: DAILY_NOTE_DAYS }, (_, back) => localDay(noon.getTime() - back * DAY_MS));
}

/** `memory/YYYY-MM-DD*.md` files of the recent days, newest day first, names in order within a day. */
export function recentDailyNoteNames(workspaceDir: string, now: number): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(workspaceDir, 'memory'));
  } catch {
    return [];
  }
  const days = recentDays(now);
  const out: string[] = [];
  for (const day of days) {
    // The day's own note first, then its topic notes (`YYYY-MM-DD-<slug>.md`) by name.
    const ofDay = entries
      .filter((name) => noteName.exec(name)?.[1] === day)
      .sort((a, b) => Number(b === `${day}.md`) - Number(a === `${day}.md`) || a.localeCompare(b));
    out.push(...ofDay.map((name) => `memory/${name}`));
  }
  return out;
}

/** Size and mtime of the recent notes: changes when one is written, added or removed, or the day turns. */
export function dailyNotesSignature(workspaceDir: string, now: number): string {
  return [
    recentDays(now)[0],
    ...recentDailyNoteNames(workspaceDir, now).map((name) => {
      try {
        const stat = statSync(join(workspaceDir, name), { throwIfNoEntry: false });
        return stat ? `${name}:${stat.mtimeMs}:${stat.size}` : `${name}:-`;
      } catch {
        return `${name}:-`;
      }
    }),
  ].join('|');
}

export interface DailyNote {
  name: string;
  path: string;
  raw: string;
}

export function readDailyNotesSync(workspaceDir: string, now: number): DailyNote[] {
  const out: DailyNote[] = [];
  for (const name of recentDailyNoteNames(workspaceDir, now)) {
    const path = join(workspaceDir, name);
    try {
      out.push({ name, path, raw: readFileSync(path, 'utf8') });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return out;
}

/**
 * Keeps the end of a daily note: notes grow at the bottom, so the newest
 * lines are the ones worth the budget. The marker says where the rest is.
 */
export function keepTail(text: string, max: number, name: string): string {
  if (text.length <= max) return text;
  const marker = `[… start of ${name} cut; read the file for all of it …]\n`;
  if (max <= marker.length) return text.slice(text.length - max);
  let tail = text.slice(text.length - (max - marker.length));
  const lineStart = tail.indexOf('\n');
  // Start on a whole line when that costs little.
  if (lineStart >= 0 && lineStart < tail.length / 4) tail = tail.slice(lineStart + 1);
  return marker + tail;
}
