import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomicSync } from '../config/index.js';

/** The bootstrap files of a workspace, in the order they are injected. */
export const bootstrapFileNames = ['AGENTS.md', 'SOUL.md', 'TOOLS.md', 'IDENTITY.md', 'USER.md', 'HEARTBEAT.md', 'BOOTSTRAP.md', 'MEMORY.md'] as const;
export type BootstrapFileName = (typeof bootstrapFileNames)[number];

/**
 * `workspace-template/` at the package root. Source (source/agent) and build
 * (dist/agent) sit at the same depth, so one relative path serves both.
 */
export function workspaceTemplateDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'workspace-template');
}

export interface WorkspaceSetup {
  dir: string;
  /** Template files copied in this call; existing files are never overwritten. */
  created: string[];
}

function hasContent(path: string, template: string): boolean {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return text !== '' && text !== template.trim();
  } catch {
    return false;
  }
}

/**
 * A workspace someone already lives in: it has memory, or an IDENTITY.md or
 * USER.md that says something. OpenClaw deletes BOOTSTRAP.md once it has
 * onboarded a user; adding ours back would make the agent ask their name again.
 */
export function isOnboardedWorkspaceSync(dir: string, templateDir: string = workspaceTemplateDir()): boolean {
  if (existsSync(join(dir, 'MEMORY.md')) || existsSync(join(dir, 'memory'))) return true;
  const template = (name: string) => {
    try {
      return readFileSync(join(templateDir, name), 'utf8');
    } catch {
      return '';
    }
  };
  return ['IDENTITY.md', 'USER.md'].some((name) => hasContent(join(dir, name), template(name)));
}

/** Creates the workspace folder and copies any template file it lacks (BOOTSTRAP.md only into a workspace nobody has onboarded). */
export function ensureWorkspaceSync(dir: string, templateDir: string = workspaceTemplateDir()): WorkspaceSetup {
  const onboarded = isOnboardedWorkspaceSync(dir, templateDir);
  mkdirSync(dir, { recursive: true });
  const created: string[] = [];
  const templates = existsSync(templateDir) ? readdirSync(templateDir).filter((name) => name.endsWith('.md')) : [];
  for (const name of templates) {
    const target = join(dir, name);
    if (existsSync(target) || (onboarded && name === 'BOOTSTRAP.md')) continue;
    copyFileSync(join(templateDir, name), target);
    created.push(name);
  }
  return { dir, created };
}

interface WorkspaceState {
  /** Set when the first turn in this workspace completed; BOOTSTRAP.md is dropped after it. */
  bootstrapCompletedAt?: number;
}

function workspaceStatePath(dir: string): string {
  return join(dir, '.claw', 'workspace-state.json');
}

function readWorkspaceStateSync(dir: string): WorkspaceState {
  try {
    const parsed: unknown = JSON.parse(readFileSync(workspaceStatePath(dir), 'utf8'));
    if (parsed && typeof parsed === 'object' && 'bootstrapCompletedAt' in parsed && typeof parsed.bootstrapCompletedAt === 'number') {
      return { bootstrapCompletedAt: parsed.bootstrapCompletedAt };
    }
    return {};
  } catch {
    return {};
  }
}

export function isFirstRunSync(dir: string): boolean {
  return readWorkspaceStateSync(dir).bootstrapCompletedAt === undefined;
}

export function markFirstRunCompleteSync(dir: string, at: number): void {
  if (!isFirstRunSync(dir)) return;
  mkdirSync(join(dir, '.claw'), { recursive: true });
  writeFileAtomicSync(workspaceStatePath(dir), `${JSON.stringify({ bootstrapCompletedAt: at })}\n`);
}
