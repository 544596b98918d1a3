import { closeSync, fstatSync, ftruncateSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { defineTool } from '../define-tool.js';
import { toolError, toolOk, type ToolContext, type ToolResult } from '../types.js';
import { createApplyPatchTool } from './apply-patch.js';
import { confinePath, PathRefused } from './confine.js';
import { ownerApprovalFor } from './owner-paths.js';
import { openConfinedSync, type OpenMode } from './safe-open.js';
import { wrapUntrusted } from '../web/untrusted.js';

export interface FsToolOptions {
  roots: readonly string[];
  /** Extra folders an agent may read but never write (its skill folders). */
  readRoots?: (agentId: string) => readonly string[];
  /** What no root opens (see hiddenHolder): the state dir and the secret paths. */
  hidden?: readonly string[];
  maxReadBytes: number;
}

function guarded(fn: () => ToolResult): ToolResult {
  try {
    return fn();
  } catch (error) {
    if (error instanceof PathRefused) return toolError(error.message);
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return toolError(`No such file: ${e.path ?? ''}. Check the path (relative paths start at the workspace).`);
    if (e.code === 'EISDIR') return toolError(`${e.path ?? 'That path'} is a directory, not a file.`);
    throw error;
  }
}

async function guardedAsync(fn: () => Promise<ToolResult | undefined>): Promise<ToolResult | undefined> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof PathRefused) return toolError(error.message);
    throw error;
  }
}

/** The text of a file that exists, for the owner's diff; undefined when it does not (yet). */
function existingText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8192).includes(0);
}

function withFile<T>(file: { fd: number }, use: (fd: number) => T): T {
  try {
    return use(file.fd);
  } finally {
    closeSync(file.fd);
  }
}

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text);
  for (let offset = 0; offset < buffer.length; ) offset += writeSync(fd, buffer, offset, buffer.length - offset, offset);
}

export function createFsTools(options: FsToolOptions) {
  const hidden = options.hidden ?? [];
  const where = (path: string, context: ToolContext) => confinePath(path, context.workspaceDir, options.roots, hidden);
  const open = (path: string, context: ToolContext, mode: OpenMode) =>
    openConfinedSync(
      path,
      context.workspaceDir,
      mode === 'read' ? [...options.roots, ...(options.readRoots?.(context.agentId) ?? [])] : options.roots,
      mode,
      hidden,
    );

  const read = defineTool({
    name: 'read',
    group: 'fs',
    risk: 'low',
    description: 'Read a text file, optionally a range of lines (1-based, inclusive).',
    input: lazySchema(() => z.strictObject({ path: z.string().min(1), from: z.number().int().min(1).optional(), to: z.number().int().min(1).optional() })),
    async execute(args, context) {
      return guarded(() => {
        const file = open(args.path, context, 'read');
        const read = withFile(file, (fd) => {
          const size = fstatSync(fd).size;
          const ranged = args.from !== undefined || args.to !== undefined;
          return size > options.maxReadBytes && !ranged ? size : readFileSync(fd);
        });
        if (typeof read === 'number') {
          return toolError(`${args.path} is ${read} bytes, over the ${options.maxReadBytes}-byte read cap. Read it in parts with from/to line numbers.`);
        }
        const buffer = read;
        if (looksBinary(buffer)) return toolError(`${args.path} is a binary file; read only works on text.`);
        const lines = buffer.toString('utf8').split('\n');
        const from = args.from ?? 1;
        const to = Math.min(args.to ?? lines.length, lines.length);
        const text = lines.slice(from - 1, to).join('\n');
        if (text.length > options.maxReadBytes) return toolError(`Lines ${from}-${to} of ${args.path} exceed the read cap; ask for fewer lines.`);
        return toolOk(wrapUntrusted(text, { source: 'read', path: args.path, lines: `${from}-${to}` }), {
          path: file.path,
          from,
          to,
          totalLines: lines.length,
        });
      });
    },
  });

  const write = defineTool({
    name: 'write',
    group: 'fs',
    risk: 'medium',
    description: 'Create or overwrite a file with the given content (parent folders are created).',
    input: lazySchema(() => z.strictObject({ path: z.string().min(1), content: z.string() })),
    async execute(args, context) {
      const refused = await guardedAsync(async () => {
        const target = where(args.path, context);
        return ownerApprovalFor(context, target, () => ({ before: existingText(target), after: args.content }));
      });
      if (refused) return refused;
      return guarded(() => {
        const file = open(args.path, context, 'write');
        withFile(file, (fd) => writeAll(fd, args.content));
        return toolOk(`Wrote ${args.content.length} characters to ${args.path}.`, { path: file.path });
      });
    },
  });

  const edit = defineTool({
    name: 'edit',
    group: 'fs',
    risk: 'medium',
    description: 'Replace one exact, unique occurrence of oldText with newText in a file.',
    input: lazySchema(() => z.strictObject({ path: z.string().min(1), oldText: z.string().min(1), newText: z.string() })),
    async execute(args, context) {
      const refused = await guardedAsync(async () => {
        const target = where(args.path, context);
        return ownerApprovalFor(context, target, () => {
          const before = existingText(target);
          // Only a change that would apply is shown to the owner; a missing or repeated oldText fails below without asking.
          if (before === undefined || before.split(args.oldText).length !== 2) return undefined;
          return { before, after: before.replace(args.oldText, () => args.newText) };
        });
      });
      if (refused) return refused;
      return guarded(() => {
        const file = open(args.path, context, 'update');
        return withFile(file, (fd) => {
          const text = readFileSync(fd, 'utf8');
          const first = text.indexOf(args.oldText);
          if (first < 0) return toolError(`oldText was not found in ${args.path}. Read the file and copy the text exactly, including whitespace.`);
          if (text.indexOf(args.oldText, first + 1) >= 0) {
            return toolError(`oldText occurs more than once in ${args.path}. Include more surrounding lines so it matches exactly one place.`);
          }
          ftruncateSync(fd, 0);
          writeAll(fd, text.slice(0, first) + args.newText + text.slice(first + args.oldText.length));
          return toolOk(`Edited ${args.path}.`, { path: file.path });
        });
      });
    },
  });

  return [read, write, edit, createApplyPatchTool(where)];
}
