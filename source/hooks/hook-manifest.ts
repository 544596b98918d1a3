import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  };
}
