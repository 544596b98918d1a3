import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../config/index.js';
import { ensureWorkspaceSync } from './workspace.js';

export interface OnboardingNames {
  agentName?: string | undefined;
  userName?: string | undefined;
}

/** Sets a `- Label: value` line of a bootstrap file, adding it when the file has none. */
function setField(text: string, label: string, value: string): string {
  const line = new RegExp(`^- ${label}:.*$`, 'm');
  return line.test(text) ? text.replace(line, `- ${label}: ${value}`) : `${text.trimEnd()}\n- ${label}: ${value}\n`;
}

function edit(dir: string, name: string, change: (text: string) => string): string {
  const path = join(dir, name);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  writeFileAtomicSync(path, change(text), 0o644);
  return path;
}

/**
 * The names `claw setup` asked for, written where the agent reads them
 * (IDENTITY.md, USER.md). With both known, BOOTSTRAP.md's first-run
 * questions are already answered, so it is removed and not asked again.
 * Returns the files written.
 */
export function writeOnboardingNamesSync(workspaceDir: string, names: OnboardingNames): string[] {
  const agentName = names.agentName?.trim();
  const userName = names.userName?.trim();
  if (!agentName && !userName) return [];
  ensureWorkspaceSync(workspaceDir);
  const written: string[] = [];
  if (agentName) written.push(edit(workspaceDir, 'IDENTITY.md', (text) => setField(text, 'Name', agentName)));
  if (userName) written.push(edit(workspaceDir, 'USER.md', (text) => setField(setField(text, 'Name', userName), 'What to call them', userName)));
  if (agentName && userName) rmSync(join(workspaceDir, 'BOOTSTRAP.md'), { force: true });
  return written;
}
