import { resolve } from 'node:path';
import { confinePath } from '../fs/confine.js';

/**
 * The read-only commands that run without asking, as an allow-list: every
 * argument must be an option the entry spells out (long options in full:
 * GNU tools accept unique prefixes, so `--comp` could mean
 * `--compress-program`; a prefix is never resolved here, it just asks) or a
 * positional of the entry's kind, paths inside the workspace and fsRoots.
 */
interface SafeEntry {
  /** Short options without a value, as one string of letters. */
  flags?: string;
  /** Short options that take a value (glued `-n5` or next argument). */
  valueFlags?: string;
  /** Long options without a value, in full. */
  long?: readonly string[];
  /** Long options that take a value (`--lines=5` or next argument). */
  longValue?: readonly string[];
  /**
   * `paths`: every positional is a path inside the roots; `pattern-paths`: the
   * first is a pattern (unless given with -e), the rest paths; `text`: any
   * text; `none`: no positional; `date-format`: only `+FORMAT`; `find`: see findSafe.
   */
  positional: 'paths' | 'pattern-paths' | 'text' | 'none' | 'date-format' | 'find';
  /**
   * At most this many positionals: a command whose next one would be a file
   * it writes (`uniq IN OUT`) is safe only with fewer.
   */
  maxPositionals?: number;
}

const safeCommands: Record<string, SafeEntry> = {
  ls: {
    flags: 'aAlhRrtSdFipsnug1',
    long: ['--all', '--almost-all', '--human-readable', '--recursive', '--reverse', '--directory', '--classify', '--inode', '--size', '--numeric-uid-gid'],
    positional: 'paths',
  },
  pwd: { positional: 'none' },
  cat: {
    flags: 'nAbeEsTtuv',
    long: ['--number', '--show-all', '--number-nonblank', '--squeeze-blank', '--show-ends', '--show-tabs', '--show-nonprinting'],
    positional: 'paths',
  },
  head: { flags: 'qv', valueFlags: 'nc', longValue: ['--lines', '--bytes'], long: ['--quiet', '--verbose'], positional: 'paths' },
  tail: { flags: 'qv', valueFlags: 'nc', longValue: ['--lines', '--bytes'], long: ['--quiet', '--verbose'], positional: 'paths' },
  wc: { flags: 'lwcmL', long: ['--lines', '--words', '--bytes', '--chars', '--max-line-length'], positional: 'paths' },
  echo: { positional: 'text' },
  printf: { positional: 'text' },
  grep: {
    flags: 'inrvwclLhHoqsExFIz',
    valueFlags: 'eABCm',
    long: [
      '--ignore-case',
      '--line-number',
      '--recursive',
      '--invert-match',
      '--word-regexp',
      '--count',
      '--files-with-matches',
      '--no-filename',
      '--with-filename',
      '--only-matching',
      '--quiet',
      '--extended-regexp',
      '--fixed-strings',
    ],
    longValue: ['--regexp', '--after-context', '--before-context', '--context', '--max-count'],
    positional: 'pattern-paths',
  },
  diff: { flags: 'uqrNsiwb', long: ['--brief', '--recursive', '--new-file', '--report-identical-files', '--ignore-case'], positional: 'paths' },
  basename: { positional: 'text' },
  dirname: { positional: 'text' },
  realpath: { flags: 'esmq', positional: 'paths' },
  stat: { flags: 'Lt', valueFlags: 'c', positional: 'paths' },
  file: { flags: 'bLiz', long: ['--brief', '--mime'], positional: 'paths' },
  which: { flags: 'a', positional: 'text' },
  true: { positional: 'none' },
  false: { positional: 'none' },
  whoami: { positional: 'none' },
  id: { flags: 'ugGnr', positional: 'none' },
  uname: { flags: 'asnrvmpio', long: ['--all'], positional: 'none' },
  nl: { flags: 'ba', positional: 'paths' },
  cut: { flags: 's', valueFlags: 'dfcb', positional: 'paths' },
  tr: { flags: 'dsc', positional: 'text' },
  du: { flags: 'shac', valueFlags: 'd', long: ['--summarize', '--human-readable'], longValue: ['--max-depth'], positional: 'paths' },
  df: { flags: 'hTi', long: ['--human-readable'], positional: 'paths' },
  date: { flags: 'uRI', long: ['--utc', '--rfc-email'], positional: 'date-format' },
  hostname: { positional: 'none' },
  sort: {
    flags: 'rnufbdhVM',
    valueFlags: 'kt',
    long: ['--reverse', '--numeric-sort', '--unique', '--ignore-case', '--human-numeric-sort', '--version-sort'],
    longValue: ['--key', '--field-separator'],
    positional: 'paths',
  },
  // `uniq IN OUT` writes OUT.
  uniq: { flags: 'cdui', positional: 'paths', maxPositionals: 1 },
  find: { positional: 'find' },
};

/** Directories whose executables the safe list trusts; a `./ls` in the workspace is not `ls`. */
export const systemBinDirs = ['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin'];

export interface SafeContext {
  cwd: string;
  /** Workspace first, then tools.fsRoots. */
  roots: readonly string[];
}

function insideRoots(path: string, context: SafeContext): boolean {
  const [workspace, ...others] = context.roots;
  if (path === '' || !workspace) return false;
  try {
    confinePath(resolve(context.cwd, path), workspace, others);
    return true;
  } catch {
    return false;
  }
}

/** Parses options against the entry; returns the positionals, or undefined when an argument is not allowed. */
function positionals(entry: SafeEntry, args: readonly string[]): { values: string[]; patternGiven: boolean } | undefined {
  const values: string[] = [];
  let patternGiven = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      values.push(...args.slice(i + 1));
      break;
    }
    if (entry.positional === 'text' || !arg.startsWith('-') || arg === '-') {
      values.push(arg);
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (entry.longValue?.includes(name)) {
        if (name === '--regexp') patternGiven = true;
        if (eq < 0) i += 1;
        if (i >= args.length) return undefined;
        continue;
      }
      if (eq < 0 && entry.long?.includes(name)) continue;
      return undefined;
    }
    for (let at = 1; at < arg.length; at += 1) {
      const letter = arg[at]!;
      if (entry.valueFlags?.includes(letter)) {
        if (letter === 'e') patternGiven = true;
        if (at === arg.length - 1) {
          i += 1;
          if (i >= args.length) return undefined;
        }
        break;
      }
      if (!entry.flags?.includes(letter)) return undefined;
    }
  }
  return { values, patternGiven };
}

const findTests = new Set(['-name', '-iname', '-path', '-ipath', '-type', '-maxdepth', '-mindepth', '-size', '-mtime', '-mmin', '-newer']);
const findWords = new Set(['-print', '-print0', '-empty', '-not', '!', '-o', '-a', '-or', '-and', '-prune', '(', ')', '-true', '-false']);

/** `find PATHS… EXPRESSION`: only tests and -print; -exec, -delete, -fprint and the rest ask. */
function findSafe(args: readonly string[], context: SafeContext): boolean {
  let i = 0;
  for (; i < args.length && !args[i]!.startsWith('-') && args[i] !== '!' && args[i] !== '('; i += 1) if (!insideRoots(args[i]!, context)) return false;
  for (; i < args.length; i += 1) {
    const word = args[i]!;
    if (findWords.has(word)) continue;
    if (!findTests.has(word) || i + 1 >= args.length) return false;
    if (word === '-newer' && !insideRoots(args[i + 1]!, context)) return false;
    i += 1;
  }
  return true;
}

/** Whether `argv` (already resolved to `executable`) is a read-only command the safe list allows as written. */
export function isSafeCommand(executable: string, argv: readonly string[], context: SafeContext): boolean {
  const dir = executable.slice(0, executable.lastIndexOf('/')) || '/';
  if (!systemBinDirs.includes(dir)) return false;
  const name = executable.slice(executable.lastIndexOf('/') + 1);
  if (name !== argv[0] && !argv[0]!.endsWith(`/${name}`)) return false;
  const entry = Object.hasOwn(safeCommands, name) ? safeCommands[name] : undefined;
  if (!entry || !insideRoots('.', context)) return false;
  const args = argv.slice(1);
  if (entry.positional === 'find') return findSafe(args, context);
  const parsed = positionals(entry, args);
  if (!parsed) return false;
  const { values, patternGiven } = parsed;
  if (entry.maxPositionals !== undefined && values.length > entry.maxPositionals) return false;
  switch (entry.positional) {
    case 'none':
      return values.length === 0;
    case 'text':
      return true;
    case 'date-format':
      return values.every((value) => value.startsWith('+'));
    case 'paths':
      return values.every((value) => value === '-' || insideRoots(value, context));
    case 'pattern-paths':
      return (patternGiven ? values : values.slice(1)).every((value) => value === '-' || insideRoots(value, context)) && (patternGiven || values.length > 0);
  }
}

export const safeCommandNames = Object.keys(safeCommands);
