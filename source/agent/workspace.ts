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

/** Creates the workspace folder and copies any template file it lacks. */
export function ensureWorkspaceSync(dir: string, templateDir: string = workspaceTemplateDir()): WorkspaceSetup {
  mkdirSync(dir, { recursive: true });
  const created: string[] = [];
  const templates = existsSync(templateDir) ? readdirSync(templateDir).filter((name) => name.endsWith('.md')) : [];
  for (const name of templates) {
    const target = join(dir, name);
    if (existsSync(target)) continue;
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
