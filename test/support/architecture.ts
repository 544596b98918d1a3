import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** DESIGN.md §2: each subsystem folder of source/ and its floor (higher imports lower). */
export const FLOORS: Readonly<Record<string, number>> = {
  cli: 8,
  tui: 8,
  daemon: 7,
  gateway: 7,
  core: 6,
  channels: 5,
  schedule: 5,
  hooks: 5,
  skills: 5,
  subagents: 5,
  mcp: 5,
  plugins: 5,
  agent: 4,
  tools: 3,
  sessions: 3,
  queue: 2,
  providers: 2,
  memory: 2,
  client: 1,
  routing: 1,
  markdown: 1,
  protocol: 0,
  config: 0,
};

/**
 * Arrows between neighbours on one floor that the design needs: the daemon
 * runs the gateway server, and `claw` with no command opens the TUI (loaded
 * lazily, so other commands never pay for Ink).
 */
const SAME_FLOOR: ReadonlyArray<readonly [string, string]> = [
  ['daemon', 'gateway'],
  ['cli', 'tui'],
  // The config file validates the protocol's vocabulary (queue modes, thinking levels), declared once there.
  ['config', 'protocol'],
];

/** DESIGN.md §2: the TUI talks to the daemon only through the client and the protocol, and renders Markdown with markdown/. */
const ONLY: Readonly<Record<string, readonly string[]>> = {
  tui: ['client', 'markdown', 'protocol', 'tui'],
};

/** The CLI never loads server code statically; the daemon only for the commands that run it. */
const NEVER_STATIC: Readonly<Record<string, readonly string[]>> = {
  cli: ['gateway', 'core', 'daemon'],
};

/**
 * DESIGN.md §2: services get ports (`CorePorts`), never the composition root.
 * Only these folders may name the `Core` class, even in a type-only import.
 */
const CORE_CLASS_ALLOWED = ['core', 'daemon', 'gateway'];
const NAMED_IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/gm;

/** Where a file outside CORE_CLASS_ALLOWED names `Core` from core/. */
function coreClassUses(file: string, sourceRoot: string): number[] {
  const text = readFileSync(file, 'utf8');
  const lines: number[] = [];
  for (const match of text.matchAll(NAMED_IMPORT)) {
    const target = relative(sourceRoot, resolve(dirname(file), match[2]!)).split(sep)[0];
    if (target !== 'core') continue;
    const names = match[1]!.split(',').map(
      (name) =>
        name
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
    );
    if (names.includes('Core')) lines.push(lineOf(text, match.index));
  }
  return lines;
}

/** The daemon's own entry, loaded only by `claw gateway run` as a bundle of its own (scripts/build.mjs). */
const DAEMON_ENTRY = join('cli', 'gateway-run.ts');

export interface ImportEdge {
  file: string;
  line: number;
  specifier: string;
  typeOnly: boolean;
  dynamic: boolean;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    edges.push({ file, line: lineOf(text, match.index), specifier: match[3]!, typeOnly: Boolean(match[2]), dynamic: false });
  }
  for (const match of text.matchAll(DYNAMIC)) edges.push({ file, line: lineOf(text, match.index), specifier: match[1]!, typeOnly: false, dynamic: true });
  return edges;
}

/** Every import in `root/source` that breaks the floor table or reaches past a subsystem's index.ts. */
export function architectureViolations(root: string): string[] {
  const sourceRoot = join(root, 'source');
  const problems: string[] = [];
  for (const file of sourceFiles(sourceRoot)) {
    const from = relative(sourceRoot, file).split(sep)[0]!;
    if (!(from in FLOORS)) {
      problems.push(`source/${from}/ is not in DESIGN.md's floor table: add it there and to FLOORS`);
      continue;
    }
    if (!CORE_CLASS_ALLOWED.includes(from)) {
      for (const line of coreClassUses(file, sourceRoot))
        problems.push(`${relative(root, file)}:${line} names the Core class: a service asks for the ports it uses (Pick<CorePorts, …>), never for Core`);
    }
    for (const edge of importsOf(file)) {
      if (!edge.specifier.startsWith('.')) continue;
      const target = relative(sourceRoot, resolve(dirname(file), edge.specifier));
      const to = target.split(sep)[0]!;
      const where = `${relative(root, file)}:${edge.line} imports ${edge.specifier}`;
      if (target === DAEMON_ENTRY.replace(/\.ts$/, '.js') && !edge.dynamic && !edge.typeOnly)
        problems.push(`${where}: the daemon's entry may only be imported dynamically (it loads daemon/ statically)`);
      if (to === from || target.startsWith('..')) continue;
      if (target !== join(to, 'index.js')) problems.push(`${where}: go through ${to}/index.ts, not a file inside it`);
      const allowed = ONLY[from];
      if (allowed && !allowed.includes(to)) problems.push(`${where}: ${from}/ may import only ${allowed.join(', ')}`);
      if (!edge.dynamic && NEVER_STATIC[from]?.includes(to) && !(to === 'daemon' && relative(sourceRoot, file) === DAEMON_ENTRY))
        problems.push(`${where}: ${from}/ must not load ${to}/ at start-up (use a dynamic import in the command that needs it)`);
      if (edge.typeOnly) continue;
      const up = FLOORS[to]! > FLOORS[from]!;
      const sideways = FLOORS[to] === FLOORS[from] && !SAME_FLOOR.some(([a, b]) => a === from && b === to);
      if (up) problems.push(`${where}: ${to}/ (floor ${FLOORS[to]}) is above ${from}/ (floor ${FLOORS[from]})`);
      if (sideways) problems.push(`${where}: ${to}/ is a neighbour on floor ${FLOORS[from]}; neighbours do not import each other`);
    }
  }
  return problems;
}
