import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, sep } from 'node:path';
import { realOrSelf } from './confine.js';
import { toolError, type ToolContext, type ToolResult } from '../types.js';

/** Workspace folders whose files become code or standing instructions: hooks, skills, other agents' rules. */
const CODE_FOLDERS = ['hooks', 'skills', '.agents'];
/**
 * Workspace files every session reads as its owner's instructions (the
 * bootstrap files; MEMORY.md is left out: the agent keeps its memory there).
 */
const INSTRUCTION_FILES = ['agents.md', 'soul.md', 'tools.md', 'identity.md', 'user.md', 'heartbeat.md', 'bootstrap.md'];

/**
 * The workspace-relative path when `target` is one only the owner changes
 * (a file under hooks/, skills/ or .agents/, or a bootstrap file), else
 * undefined. Compared without case, so a case-insensitive disk is covered.
 */
export function ownerOnlyPath(target: string, workspaceDir: string): string | undefined {
  const rel = relative(realOrSelf(workspaceDir), target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const parts = rel.split(sep);
  const first = parts[0]!.toLowerCase();
  if (parts.length > 1 ? CODE_FOLDERS.includes(first) : CODE_FOLDERS.includes(first) || INSTRUCTION_FILES.includes(first)) return rel;
  return undefined;
}

/** The existing owner-only paths of a workspace: read-only inside the exec sandbox. */
export function ownerOnlyPaths(workspaceDir: string): string[] {
  return [...CODE_FOLDERS, 'AGENTS.md', 'SOUL.md', 'TOOLS.md', 'IDENTITY.md', 'USER.md', 'HEARTBEAT.md', 'BOOTSTRAP.md'].map((name) =>
    join(workspaceDir, name),
  );
}

const DIFF_CHARS = 6000;

/** A change as removed and added lines around what stayed, capped for an approval prompt. */
export function changeDiff(before: string | undefined, after: string): string {
  const old = before === undefined ? [] : before.split('\n');
  const next = after.split('\n');
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) head += 1;
  let tail = 0;
  while (tail < old.length - head && tail < next.length - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) tail += 1;
  const lines = [
    ...(head > 0 ? [`@@ after line ${head}`] : []),
    ...old.slice(head, old.length - tail).map((line) => `-${line}`),
    ...next.slice(head, next.length - tail).map((line) => `+${line}`),
  ].join('\n');
  return lines.length > DIFF_CHARS ? `${lines.slice(0, DIFF_CHARS)}\n… (${lines.length - DIFF_CHARS} more characters)` : lines;
}

/**
 * Asks the owner before a tool writes a file that becomes code or standing
 * instructions, showing the change as a diff. Resolves to a refusal for the
 * model, or undefined once approved (or when the path is not the owner's).
 */
export async function ownerApprovalFor(
  context: ToolContext,
  target: string,
  /** The change to show, asked for only when the path is the owner's (most writes never read the old file). */
  describe: () => { before?: string | undefined; after: string } | { patch: string } | undefined,
): Promise<ToolResult | undefined> {
  const rel = ownerOnlyPath(target, context.workspaceDir);
  if (!rel) return undefined;
  const change = describe();
  if (!change) return undefined;
  const shown = 'patch' in change ? change.patch : changeDiff(change.before, change.after);
  const binding = `fs\u0000${rel}\u0000${createHash('sha256').update(shown).digest('hex')}`;
  if (context.approvals.approvedForSession('fs', binding)) return undefined;
  const outcome = await context.approvals.request(
    {
      kind: 'fs',
      command: `change ${rel}\n${shown}`,
      binding,
      cwd: context.workspaceDir,
      envKeys: [],
      reason: `${rel} becomes code or instructions the agent follows later (hooks/, skills/, .agents/, the bootstrap files): only the owner approves a change to it`,
    },
    context.signal,
  );
  if (outcome.approved) return undefined;
  return toolError(
    `Not written: ${rel} is one of the files only the owner changes (hooks/, skills/, .agents/, the bootstrap files), and the change was ${outcome.status === 'expired' ? 'not answered in time' : 'denied'}. Say what you would change instead.`,
  );
}
