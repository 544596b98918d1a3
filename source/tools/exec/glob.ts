import { lstatSync, readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { ExecPlan, PlanCommand } from './plan.js';

function hasGlob(segment: string): boolean {
  return /(^|[^\\])[*?[]/.test(segment);
}

function unescapeGlob(segment: string): string {
  return segment.replace(/\\(.)/g, '$1');
}

/** One path segment in glob syntax as a regex: `*` and `?` never cross `/`, `[…]` is a class, `\x` is literal. */
function segmentRegex(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i += 1) {
    const c = segment[i]!;
    if (c === '\\' && i + 1 < segment.length) {
      source += segment[i + 1]!.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      i += 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) source += '\\[';
      else {
        const body = segment.slice(i + 1, end);
        const negated = body.startsWith('!') || body.startsWith('^');
        source += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The file names a pattern matches, sorted, the way sh would expand it (dot
 * files only for a pattern starting with `.`, the pattern itself when nothing
 * matches). A match starting with `-` gets `./` so a file named
 * `--checkpoint-action=exec=…` stays a file name, not an option.
 */
export function expandGlob(pattern: string, cwd: string): string[] {
  const segments = pattern.split('/');
  let bases = [isAbsolute(pattern) ? '/' : ''];
  for (const segment of isAbsolute(pattern) ? segments.slice(1) : segments) {
    if (segment === '') continue;
    if (!hasGlob(segment)) {
      bases = bases.map((base) => (base ? join(base, unescapeGlob(segment)) : unescapeGlob(segment)));
      continue;
    }
    const regex = segmentRegex(segment);
    const dotted = segment.startsWith('.');
    bases = bases.flatMap((base) =>
      entries(resolve(cwd, base || '.'))
        .filter((name) => regex.test(name) && (dotted || !name.startsWith('.')))
        .sort()
        .map((name) => (base ? join(base, name) : name)),
    );
  }
  const found = bases.filter((path) => lstatSync(resolve(cwd, path), { throwIfNoEntry: false }) !== undefined);
  if (found.length === 0) return [unescapeGlob(pattern)];
  return found.map((path) => (path.startsWith('-') ? `./${path}` : path));
}

function expandCommand(command: PlanCommand, cwd: string): PlanCommand {
  if (!command.globs) return command;
  const argv = command.argv.flatMap((word, index) => {
    const pattern = command.globs![index];
    return pattern === undefined ? [word] : expandGlob(pattern, cwd);
  });
  return { argv, redirects: command.redirects };
}

/** The plan with every unquoted glob replaced by the names it matches now; `expanded` says whether there were any. */
export function expandPlanGlobs(plan: ExecPlan, cwd: string): { plan: ExecPlan; expanded: boolean } {
  if (plan.shellRequired) return { plan, expanded: false };
  const expanded = plan.steps.some((step) => step.pipeline.some((command) => command.globs));
  if (!expanded) return { plan, expanded };
  return { plan: { ...plan, steps: plan.steps.map((step) => ({ ...step, pipeline: step.pipeline.map((command) => expandCommand(command, cwd)) })) }, expanded };
}
