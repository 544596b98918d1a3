import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripFrontMatter } from '../agent/index.js';

export const HEARTBEAT_FILE = 'HEARTBEAT.md';

export type HeartbeatFile = { ok: true; text: string } | { ok: false; reason: string };

/**
 * What of HEARTBEAT.md is worth a model call: the text without YAML front
 * matter, HTML comments, headings and blank lines. A file that is missing or
 * holds only those makes the heartbeat free.
 */
export function readHeartbeatFile(workspaceDir: string): HeartbeatFile {
  let raw: string;
  try {
    raw = readFileSync(join(workspaceDir, HEARTBEAT_FILE), 'utf8');
  } catch {
    return { ok: false, reason: `${HEARTBEAT_FILE} is missing` };
  }
  const body = stripFrontMatter(raw);
  const meaningful = body
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^\s{0,3}#{1,6}(\s|$)/.test(line));
  if (meaningful.length === 0) return { ok: false, reason: `${HEARTBEAT_FILE} is empty (only front matter, headings or comments)` };
  return { ok: true, text: body.trim() };
}
