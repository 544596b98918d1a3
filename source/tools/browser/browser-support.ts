import type { StatePaths } from '../../config/index.js';
import type { ToolContext } from '../types.js';
import { BrowserActionError } from './page-view.js';
import { readBrowserSecrets } from './secrets.js';

/** File types a download of needs the owner's yes: they run, or install something that does. */
export const EXECUTABLE = new Set(
  'exe msi bat cmd com scr ps1 psm1 vbs vbe wsf jar sh bash zsh fish command run bin elf appimage app dmg pkg deb rpm apk so dll dylib py pl rb js mjs cjs lnk reg desktop iso'.split(
    ' ',
  ),
);

export function need<T>(value: T | undefined, name: string, action: string): T {
  if (value === undefined || value === '') throw new BrowserActionError(`browser ${action} needs "${name}".`);
  return value;
}

export function browserSecret(paths: StatePaths, name: string): string {
  const value = readBrowserSecrets(paths)[name];
  if (!value) throw new BrowserActionError(`No stored secret "${name}": ask the owner to add it with \`claw browser secret set ${name}\`.`);
  return value;
}

export async function ask(context: ToolContext, command: string, binding: string, reason: string): Promise<boolean> {
  if (context.approvals.approvedForSession('browser', binding)) return true;
  const outcome = await context.approvals.request({ kind: 'browser', command, binding, cwd: context.workspaceDir, envKeys: [], reason }, context.signal);
  return outcome.approved;
}

export function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BrowserHung(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class BrowserHung extends Error {}

/** How long the browser process has to answer after an action timed out before it counts as hung. */
export const RESPONSIVE_WITHIN_MS = 3_000;
