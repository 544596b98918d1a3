import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionKind } from '../protocol/index.js';
import { DAILY_NOTE_FILE_MAX_CHARS, DAILY_NOTES_TOTAL_MAX_CHARS, keepTail, readDailyNotesSync } from './daily-notes.js';
import { stripFrontMatter } from './front-matter.js';
import { bootstrapFileNames, type BootstrapFileName } from './workspace.js';

export const BOOTSTRAP_FILE_MAX_CHARS = 20_000;
export const BOOTSTRAP_TOTAL_MAX_CHARS = 150_000;
const HEAD_SHARE = 0.7;
const TAIL_SHARE = 0.2;

export type { SessionKind };

const minimalSet: ReadonlySet<BootstrapFileName> = new Set(['AGENTS.md', 'TOOLS.md', 'SOUL.md', 'IDENTITY.md', 'USER.md']);

/**
 * Subagents and cron runs get a minimal set (no heartbeat checklist, no
 * private memory); group chats never see MEMORY.md; BOOTSTRAP.md only until
 * the workspace's first turn completes.
 */
export function selectBootstrapFiles(kind: SessionKind, firstRun: boolean): BootstrapFileName[] {
  return bootstrapFileNames.filter((name) => {
    if (kind === 'subagent' || kind === 'cron') return minimalSet.has(name);
    if (name === 'MEMORY.md' && kind === 'group') return false;
    if (name === 'BOOTSTRAP.md') return firstRun;
    return true;
  });
}

export interface TruncatedText {
  text: string;
  truncated: boolean;
  cutChars: number;
}

/**
 * Keeps the head (70 %) and tail (20 %) of `max` characters with a marker in
 * between that names what was cut, so the model knows to read the file itself.
 */
export function truncateHeadTail(text: string, max: number, label: string): TruncatedText {
  if (text.length <= max) return { text, truncated: false, cutChars: 0 };
  // Below this the marker would not fit in the 10 % left for it.
  if (max < 2_000) return { text: text.slice(0, max), truncated: true, cutChars: text.length - max };
  const head = Math.floor(max * HEAD_SHARE);
  const tail = Math.floor(max * TAIL_SHARE);
  const cutChars = text.length - head - tail;
  const marker = `\n\n[… ${cutChars} of ${text.length} characters of ${label} cut here; read the file for the full text …]\n\n`;
  return { text: text.slice(0, head) + marker + text.slice(text.length - tail), truncated: true, cutChars };
}

export interface BootstrapFileReport {
  /** A bootstrap file, a recent daily note as `memory/YYYY-MM-DD*.md`, or `hook:<name>` for text an agent:bootstrap hook added. */
  name: BootstrapFileName | `memory/${string}` | `hook:${string}`;
  path: string;
  missing: boolean;
  rawChars: number;
  injectedChars: number;
  truncated: boolean;
}

export interface BootstrapFile extends BootstrapFileReport {
  content: string;
}

export interface BootstrapLoad {
  files: BootstrapFile[];
  totalRawChars: number;
  totalInjectedChars: number;
}

export interface BootstrapOptions {
  kind: SessionKind;
  firstRun: boolean;
  perFileMax?: number;
  totalMax?: number;
  /** The clock's now: the main session also gets today's and yesterday's `memory/YYYY-MM-DD*.md`. */
  now?: number;
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Reads the selected bootstrap files of a workspace (YAML front matter
 * stripped) and applies the per-file and total budgets. Once the total budget
 * is spent, later files are cut to what remains (and report it), so the order
 * above is also the priority. The main session then gets the recent daily
 * notes under their own, smaller budget, newest first.
 */
export function loadBootstrapSync(workspaceDir: string, options: BootstrapOptions): BootstrapLoad {
  const perFileMax = options.perFileMax ?? BOOTSTRAP_FILE_MAX_CHARS;
  let remaining = options.totalMax ?? BOOTSTRAP_TOTAL_MAX_CHARS;
  const files: BootstrapFile[] = [];
  let totalRawChars = 0;
  for (const name of selectBootstrapFiles(options.kind, options.firstRun)) {
    const path = join(workspaceDir, name);
    const raw = readIfPresent(path);
    if (raw === undefined) {
      files.push({ name, path, missing: true, rawChars: 0, injectedChars: 0, truncated: false, content: '' });
      continue;
    }
    totalRawChars += raw.length;
    const body = stripFrontMatter(raw);
    const fitted = truncateHeadTail(body, Math.min(perFileMax, Math.max(0, remaining)), name);
    const content = remaining > 0 ? fitted.text : '';
    remaining -= content.length;
    files.push({ name, path, missing: false, rawChars: raw.length, injectedChars: content.length, truncated: content.length < body.length, content });
  }
  if (options.kind === 'main' && options.now !== undefined) {
    let notesLeft = DAILY_NOTES_TOTAL_MAX_CHARS;
    for (const note of readDailyNotesSync(workspaceDir, options.now)) {
      if (notesLeft <= 0) break;
      totalRawChars += note.raw.length;
      const body = stripFrontMatter(note.raw);
      const content = keepTail(body, Math.min(DAILY_NOTE_FILE_MAX_CHARS, notesLeft), note.name);
      notesLeft -= content.length;
      files.push({
        name: note.name as `memory/${string}`,
        path: note.path,
        missing: false,
        rawChars: note.raw.length,
        injectedChars: content.length,
        truncated: content !== body,
        content,
      });
    }
  }
  return { files, totalRawChars, totalInjectedChars: files.reduce((sum, file) => sum + file.injectedChars, 0) };
}

/**
 * Adds hook text after the workspace files, inside what is left of the total
 * budget, so the context report counts it like any bootstrap file.
 */
export function withHookBootstrap(
  load: BootstrapLoad,
  extra: ReadonlyArray<{ source: string; text: string }>,
  totalMax = BOOTSTRAP_TOTAL_MAX_CHARS,
): BootstrapLoad {
  if (extra.length === 0) return load;
  let remaining = totalMax - load.totalInjectedChars;
  const files = [...load.files];
  for (const { source, text } of extra) {
    const name = `hook:${source}` as const;
    const fitted = truncateHeadTail(text, Math.min(BOOTSTRAP_FILE_MAX_CHARS, Math.max(0, remaining)), name);
    const content = remaining > 0 ? fitted.text : '';
    remaining -= content.length;
    files.push({ name, path: name, missing: false, rawChars: text.length, injectedChars: content.length, truncated: content.length < text.length, content });
  }
  return {
    files,
    totalRawChars: load.totalRawChars + extra.reduce((sum, part) => sum + part.text.length, 0),
    totalInjectedChars: files.reduce((sum, file) => sum + file.injectedChars, 0),
  };
}
