import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../config/index.js';

export interface ConversationMessage {
  role: 'user' | 'assistant';
  text: string;
}

export interface SessionMemoryOptions {
  /** The agent workspace (statePaths().workspace(agentId) or the configured one). */
  workspace: string;
  messages: ConversationMessage[];
  sessionKey?: string;
  /** Used for the file's date and header; pass the gateway clock. */
  now?: Date;
  /** Most recent messages kept. */
  maxMessages?: number;
}

const MAX_MESSAGE_CHARS = 2000;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Three to five lower-case words from the first user message, or `session-HHMM`. */
export function sessionSlug(messages: ConversationMessage[], now: Date): string {
  const first = messages.find((m) => m.role === 'user')?.text ?? '';
  const words = first.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const slug = words.slice(0, 5).join('-').slice(0, 48).replace(/-+$/, '');
  return slug.length >= 3 ? slug : `session-${pad(now.getHours())}${pad(now.getMinutes())}`;
}

/**
 * Saves the recent conversation as `memory/YYYY-MM-DD-<slug>.md` in the
 * workspace, so it becomes searchable memory. The sessions layer calls this on
 * `/new` and `/reset`. Returns the workspace-relative path, or undefined when
 * there was nothing to save. Never overwrites: a clash gets `-2`, `-3`, ….
 */
export function writeSessionMemory(options: SessionMemoryOptions): string | undefined {
  const messages = options.messages.filter((m) => m.text.trim() !== '').slice(-(options.maxMessages ?? 20));
  if (messages.length === 0) return undefined;
  const now = options.now ?? new Date();
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const base = `${date}-${sessionSlug(messages, now)}`;
  const dir = join(options.workspace, 'memory');
  mkdirSync(dir, { recursive: true });
  let name = `${base}.md`;
  for (let n = 2; existsSync(join(dir, name)); n++) name = `${base}-${n}.md`;
  const lines = [`# Session ${date} ${pad(now.getHours())}:${pad(now.getMinutes())}`, ''];
  if (options.sessionKey) lines.push(`Session: ${options.sessionKey}`, '');
  for (const message of messages) {
    const text = message.text.length > MAX_MESSAGE_CHARS ? `${message.text.slice(0, MAX_MESSAGE_CHARS)}…` : message.text;
    lines.push(`## ${message.role === 'user' ? 'User' : 'Assistant'}`, '', text.trim(), '');
  }
  writeFileAtomicSync(join(dir, name), lines.join('\n'));
  return `memory/${name}`;
}
