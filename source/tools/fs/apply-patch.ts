import { existsSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { writeFileAtomicSync } from '../../config/index.js';
import { defineTool } from '../define-tool.js';
import { toolError, toolOk, type ToolContext } from '../types.js';
import { PathRefused } from './confine.js';
import { ownerApprovalFor, ownerOnlyPath } from './owner-paths.js';
import { addedText, applyHunks, HunkMismatch } from './patch-hunks.js';
import { parsePatch, PatchError, type PatchOperation } from './patch-parser.js';

const NEW_FILE_MODE = 0o644;

/** Planned content per real path: a string to write, null to delete. */
interface Plan {
  contents: Map<string, string | null>;
  modes: Map<string, number>;
  added: string[];
  updated: string[];
  deleted: string[];
  moved: { from: string; to: string }[];
}

export interface PatchSummary {
  added: string[];
  updated: string[];
  deleted: string[];
  moved: { from: string; to: string }[];
}

type Confine = (path: string) => string;

function fail(path: string, why: string): never {
  throw new PatchError(`${path}: ${why}`);
}

/** Current content of a real path, as the earlier operations of this patch left it. */
function currentText(plan: Plan, real: string, shown: string): string | null {
  if (plan.contents.has(real)) return plan.contents.get(real)!;
  if (!existsSync(real)) return null;
  const stat = statSync(real);
  if (!stat.isFile()) fail(shown, 'is not a regular file.');
  const buffer = readFileSync(real);
  if (buffer.subarray(0, 8192).includes(0)) fail(shown, 'is a binary file; apply_patch only edits text.');
  plan.modes.set(real, stat.mode & 0o7777);
  return buffer.toString('utf8');
}

function planOperation(plan: Plan, operation: PatchOperation, confine: Confine): void {
  const real = confine(operation.path);
  const text = currentText(plan, real, operation.path);
  if (operation.type === 'add') {
    if (text !== null) fail(operation.path, 'already exists. Use "*** Update File:" to change it, or delete it first.');
    plan.contents.set(real, addedText(operation.lines));
    plan.added.push(operation.path);
    return;
  }
  if (text === null) fail(operation.path, 'does not exist. Check the path (relative paths start at the workspace), or use "*** Add File:".');
  if (operation.type === 'delete') {
    plan.contents.set(real, null);
    plan.deleted.push(operation.path);
    return;
  }
  let next: string;
  try {
    next = applyHunks(text, operation.hunks);
  } catch (error) {
    if (error instanceof HunkMismatch) fail(operation.path, `${error.message}\nRead the file and copy the context and removed lines exactly.`);
    throw error;
  }
  if (operation.moveTo === undefined) {
    plan.contents.set(real, next);
    plan.updated.push(operation.path);
    return;
  }
  const target = confine(operation.moveTo);
  if (target !== real) {
    if (currentText(plan, target, operation.moveTo) !== null)
      fail(operation.path, `cannot move onto ${operation.moveTo}: it already exists. Delete it first or pick another name.`);
    const mode = plan.modes.get(real);
    if (mode !== undefined) plan.modes.set(target, mode);
    plan.contents.set(real, null);
  }
  plan.contents.set(target, next);
  plan.moved.push({ from: operation.path, to: operation.moveTo });
}

/** Writes the plan; if a write fails midway, puts back what was already changed. */
function commitPlan(plan: Plan): void {
  const undo: { path: string; previous: Buffer | null; mode: number }[] = [];
  try {
    for (const [path, content] of plan.contents) {
      const previous = existsSync(path) ? readFileSync(path) : null;
      const mode = plan.modes.get(path) ?? NEW_FILE_MODE;
      if (content === null) {
        if (previous === null) continue;
        undo.push({ path, previous, mode });
        unlinkSync(path);
      } else {
        undo.push({ path, previous, mode });
        writeFileAtomicSync(path, content, mode);
      }
    }
  } catch (error) {
    for (const step of undo.reverse()) {
      try {
        if (step.previous === null) unlinkSync(step.path);
        else writeFileAtomicSync(step.path, step.previous, step.mode);
      } catch {
        /* best effort: the original error is what the caller must see */
      }
    }
    throw error;
  }
}

/**
 * Validates every operation and computes every file's new content before
 * touching the disk, so a patch applies completely or not at all.
 */
export function applyPatchText(patch: string, confine: Confine): PatchSummary {
  const plan: Plan = { contents: new Map(), modes: new Map(), added: [], updated: [], deleted: [], moved: [] };
  for (const operation of parsePatch(patch)) planOperation(plan, operation, confine);
  commitPlan(plan);
  return { added: plan.added, updated: plan.updated, deleted: plan.deleted, moved: plan.moved };
}

function describeSummary(summary: PatchSummary): string {
  const lines = [
    ...summary.added.map((p) => `A ${p}`),
    ...summary.updated.map((p) => `M ${p}`),
    ...summary.moved.map((m) => `R ${m.from} -> ${m.to}`),
    ...summary.deleted.map((p) => `D ${p}`),
  ];
  return `Applied the patch:\n${lines.join('\n')}`;
}

/** Every path a patch adds, updates, deletes or moves to, before anything is applied. */
function patchTargets(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)].map((match) => match[1]!.trim());
}

export function createApplyPatchTool(confineIn: (path: string, context: ToolContext) => string) {
  return defineTool({
    name: 'apply_patch',
    group: 'fs',
    risk: 'medium',
    description: [
      'Add, update, delete and move files with one patch; it applies completely or not at all.',
      'Format: "*** Begin Patch", then per file "*** Add File: PATH" (each line prefixed +), "*** Delete File: PATH",',
      'or "*** Update File: PATH" (optionally "*** Move to: NEWPATH") followed by hunks: "@@ optional line the hunk comes after",',
      'then lines prefixed " " (unchanged context), "-" (removed), "+" (added); "*** End of File" pins a hunk to the file end.',
      'Finish with "*** End Patch". Give 3 lines of context around each change; hunks apply in order.',
    ].join(' '),
    input: lazySchema(() => z.strictObject({ patch: z.string().min(1).describe('The whole patch text, from "*** Begin Patch" to "*** End Patch".') })),
    async execute(args, context) {
      try {
        // One question for the whole patch, shown whole, when any file it touches is the owner's.
        const owned = patchTargets(args.patch)
          .map((path) => confineIn(path, context))
          .find((target) => ownerOnlyPath(target, context.workspaceDir));
        const refused = owned ? await ownerApprovalFor(context, owned, () => ({ patch: args.patch })) : undefined;
        if (refused) return refused;
        const summary = applyPatchText(args.patch, (path) => confineIn(path, context));
        return toolOk(describeSummary(summary), { ...summary });
      } catch (error) {
        if (error instanceof PatchError || error instanceof PathRefused) return toolError(`The patch was not applied; nothing was written. ${error.message}`);
        throw error;
      }
    },
  });
}
