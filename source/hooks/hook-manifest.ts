import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FrontmatterError, parseFrontmatter, type FrontValue } from './frontmatter.js';
import { hookEvents, isHookEvent, type HookEvent } from './hook-events.js';

export type HookSource = 'workspace' | 'user' | 'bundled';

export type HookHandler = { kind: 'module'; path: string } | { kind: 'command'; command: string };

export interface HookManifest {
  name: string;
  description: string;
  events: HookEvent[];
  requires: { bins: string[]; env: string[]; os: string[] };
  timeoutMs?: number;
}

export interface HookDefinition {
  manifest: HookManifest;
  dir: string;
  source: HookSource;
  handler: HookHandler;
  /** sha256 of every file in the folder as discovered: what enabling pins (`hookDigestSync`). */
  digest: string;
}

/** Past this many files or bytes a folder is not a hook anyone reviewed: it hashes as changed every time. */
const DIGEST_MAX_FILES = 500;
const DIGEST_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The content hash of a hook folder: every file under it (names and bytes,
 * in sorted order, symlinks followed), so a rewritten handler, script or
 * HOOK.md, or a file added beside them, gives another hash.
 */
export function hookDigestSync(dir: string): string {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for (const file of hookFilesSync(dir)) {
      const content = readFileSync(file);
      bytes += content.length;
      if (bytes > DIGEST_MAX_BYTES) throw new Error(`${dir} holds more than ${DIGEST_MAX_BYTES} bytes`);
      hash.update(`${relative(dir, file)}\0${content.length}\0`).update(content);
    }
  } catch (error) {
    return `unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
  return hash.digest('hex');
}

/** Every file under a hook folder, in sorted order (symlinks followed); throws past DIGEST_MAX_FILES. */
function hookFilesSync(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path);
      else if (stat?.isFile()) files.push(path);
      if (files.length > DIGEST_MAX_FILES) throw new Error(`${dir} holds more than ${DIGEST_MAX_FILES} files`);
    }
  };
  walk(dir);
  return files;
}

/**
 * A cheap stand-in for the digest between runs: each file's inode, size and
 * change time. A write always moves ctime, which no process can set back, so
 * an unchanged signature means unchanged files and the hash need not be
 * computed again on every event.
 */
export function hookSignatureSync(dir: string): string {
  try {
    return hookFilesSync(dir)
      .map((file) => {
        const stat = statSync(file);
        return `${relative(dir, file)}:${stat.ino}:${stat.size}:${stat.ctimeMs}`;
      })
      .join('\n');
  } catch (error) {
    return `unreadable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export class HookManifestError extends Error {
  constructor(
    readonly dir: string,
    message: string,
  ) {
    super(`${join(dir, 'HOOK.md')}: ${message}`);
  }
}

const NAME = /^[a-z0-9][a-z0-9._-]*$/i;
const HANDLER_FILES = ['handler.js', 'handler.mjs'];

function stringList(value: FrontValue | undefined, field: string, fail: (message: string) => never): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) fail(`${field} must be a list of strings`);
  return value as string[];
}

/** Reads and checks one hook folder; every mistake names the file and what to write instead. */
export function readHookSync(dir: string, source: HookSource): HookDefinition {
  const fail = (message: string): never => {
    throw new HookManifestError(dir, message);
  };
  let data: Record<string, FrontValue>;
  try {
    data = parseFrontmatter(readFileSync(join(dir, 'HOOK.md'), 'utf8')).data;
  } catch (error) {
    if (error instanceof FrontmatterError) fail(error.message);
    throw error;
  }
  const { name, description, events, requires, timeoutMs, command } = data;
  if (typeof name !== 'string' || !NAME.test(name)) fail('name must be a word like "session-memory" (letters, digits, ".", "_", "-")');
  if (typeof description !== 'string' || description.trim() === '') fail('description must say in one line what the hook does');
  const eventNames = stringList(events, 'events', fail);
  if (eventNames.length === 0) fail(`events must list at least one of: ${hookEvents.join(', ')}`);
  const unknown = eventNames.filter((event) => !isHookEvent(event));
  if (unknown.length > 0) fail(`unknown event ${unknown.map((e) => `"${e}"`).join(', ')}; the events are: ${hookEvents.join(', ')}`);
  if (requires !== undefined && requires !== null && (typeof requires !== 'object' || Array.isArray(requires)))
    fail('requires must be a map with bins, env and os lists');
  const req = (requires ?? {}) as Record<string, FrontValue>;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs <= 0))
    fail('timeoutMs must be a whole number of milliseconds above 0');
  if (command !== undefined && (typeof command !== 'string' || command.trim() === '')) fail('command must be the command line to run, e.g. "node check.mjs"');
  const moduleFile = HANDLER_FILES.find((file) => existsSync(join(dir, file)));
  if (command !== undefined && moduleFile) fail(`has both a command and ${moduleFile}; keep one of them`);
  if (command === undefined && !moduleFile) fail('needs a handler: a handler.js or handler.mjs next to HOOK.md, or a command: line');
  return {
    manifest: {
      name: name as string,
      description: (description as string).trim(),
      events: [...new Set(eventNames)] as HookEvent[],
      requires: {
        bins: stringList(req.bins, 'requires.bins', fail),
        env: stringList(req.env, 'requires.env', fail),
        os: stringList(req.os, 'requires.os', fail),
      },
      ...(typeof timeoutMs === 'number' ? { timeoutMs } : {}),
    },
    dir,
    source,
    handler: command !== undefined ? { kind: 'command', command: (command as string).trim() } : { kind: 'module', path: join(dir, moduleFile!) },
    digest: hookDigestSync(dir),
  };
}
