/**
 * The short list of read-only commands the default policy runs without
 * asking. Each entry names the flags that would make it write, execute or
 * reach elsewhere (argument injection such as `find -exec`); a command
 * using one of them falls back to asking.
 */
interface SafeEntry {
  /** Flags (exact, or a prefix ending in `=`) that disqualify the command. */
  deny?: readonly string[];
  /** Most positional arguments allowed (e.g. `hostname NAME` would set it). */
  maxPositional?: number;
}

const safeCommands: Record<string, SafeEntry> = {
  ls: {},
  pwd: {},
  cat: {},
  head: {},
  tail: {},
  wc: {},
  echo: {},
  printf: {},
  grep: {},
  diff: {},
  basename: {},
  dirname: {},
  realpath: {},
  stat: {},
  file: { deny: ['-f', '--files-from', '-m', '--magic-file', '-C', '--compile'] },
  which: {},
  true: {},
  false: {},
  whoami: {},
  id: {},
  uname: {},
  nl: {},
  cut: {},
  tr: {},
  du: {},
  df: {},
  date: { deny: ['-s', '--set', '-f', '--file'] },
  hostname: { maxPositional: 0, deny: ['-F', '--file', '-b', '--boot'] },
  sort: { deny: ['-o', '--output', '--compress-program', '-T', '--temporary-directory'] },
  find: { deny: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'] },
};

/** Directories whose executables the safe list trusts; a `./ls` in the workspace is not `ls`. */
export const systemBinDirs = ['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin'];

function flagDenied(arg: string, deny: readonly string[]): boolean {
  for (const flag of deny) {
    if (arg === flag) return true;
    if (flag.startsWith('--') && arg.startsWith(`${flag}=`)) return true;
    // Short flags glued to a value (`-ofile`) or bundled (`-rTdir`).
    if (/^-[A-Za-z]$/.test(flag) && /^-[A-Za-z]+/.test(arg) && !arg.startsWith('--') && arg.slice(1).includes(flag[1]!)) return true;
  }
  return false;
}

/** Whether `argv` (already resolved to `executable`) is a read-only command from the safe list. */
export function isSafeCommand(executable: string, argv: readonly string[]): boolean {
  const dir = executable.slice(0, executable.lastIndexOf('/')) || '/';
  if (!systemBinDirs.includes(dir)) return false;
  const name = executable.slice(executable.lastIndexOf('/') + 1);
  const entry = Object.hasOwn(safeCommands, name) ? safeCommands[name] : undefined;
  if (!entry) return false;
  const args = argv.slice(1);
  if (entry.deny && args.some((arg) => flagDenied(arg, entry.deny!))) return false;
  if (entry.maxPositional !== undefined && args.filter((a) => !a.startsWith('-')).length > entry.maxPositional) return false;
  return true;
}

export const safeCommandNames = Object.keys(safeCommands);
