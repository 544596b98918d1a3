/**
 * Parses a command line ONCE into the plan claw runs itself. Only a small,
 * shell-free subset is understood: words, quotes, escapes, pipes, `&&`,
 * `||`, `;`, newlines and simple redirections. Anything whose meaning needs
 * a shell is flagged `shellRequired` with the reasons, so it can only run
 * after an operator approves the exact text.
 */

export type Connector = ';' | '&&' | '||';

export interface Redirect {
  fd: 0 | 1 | 2;
  /** `<` read, `>` truncate, `>>` append, `>&1` stderr into stdout. */
  op: '<' | '>' | '>>' | '>&1';
  target?: string;
}

export interface PlanCommand {
  argv: string[];
  redirects: Redirect[];
  /**
   * Unquoted glob patterns by argv index, in glob syntax (quoted characters
   * backslash-escaped). claw expands them itself before asking, so the
   * approval shows every file name the command will get.
   */
  globs?: Record<number, string>;
}

export interface PlanStep {
  /** How this step joins the previous one; the first step has none. */
  connector: Connector | null;
  pipeline: PlanCommand[];
}

export interface ExecPlan {
  text: string;
  steps: PlanStep[];
  shellRequired: boolean;
  shellReasons: string[];
}

type Token = { kind: 'word'; value: string; glob?: string } | { kind: 'op'; value: string };

function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

const shellOnlyInterpreters = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox']);
const stdinInterpreters = new Set([
  ...shellOnlyInterpreters,
  'node',
  'nodejs',
  'deno',
  'bun',
  'python',
  'python3',
  'python2',
  'perl',
  'ruby',
  'php',
  'lua',
  'osascript',
  'pwsh',
  'powershell',
  'tclsh',
  'awk',
  'gawk',
  'xargs',
  'source',
  'eval',
]);
const shellBuiltins = new Set(['eval', 'exec', 'source', '.', 'alias', 'export', 'set', 'trap', 'builtin', 'command', 'cd', 'ulimit', 'umask']);

function hasInvisible(text: string): boolean {
  // Control characters other than tab/newline, and bidi/zero-width marks, can make the displayed text differ from what runs.
  return /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(text);
}

function tokenize(text: string, reasons: Set<string>): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  // The same word in glob syntax, and whether an unquoted glob character is in it.
  let pattern = '';
  let globbed = false;
  let i = 0;
  const flush = () => {
    if (inWord) tokens.push(globbed ? { kind: 'word', value: word, glob: pattern } : { kind: 'word', value: word });
    word = '';
    pattern = '';
    globbed = false;
    inWord = false;
  };
  const literal = (chars: string) => {
    word += chars;
    pattern += escapeGlob(chars);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) {
        reasons.add('unterminated single quote');
        literal(text.slice(i + 1));
        inWord = true;
        break;
      }
      literal(text.slice(i + 1, end));
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i += 1;
      inWord = true;
      let closed = false;
      while (i < text.length) {
        const d = text[i]!;
        if (d === '"') {
          closed = true;
          i += 1;
          break;
        }
        if (d === '\\' && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1]!)) {
          literal(text[i + 1]!);
          i += 2;
          continue;
        }
        if (d === '$') reasons.add('variable or command substitution ($)');
        if (d === '`') reasons.add('command substitution (backticks)');
        literal(d);
        i += 1;
      }
      if (!closed) reasons.add('unterminated double quote');
      continue;
    }
    if (c === '\\') {
      if (i + 1 < text.length) {
        if (text[i + 1] === '\n') reasons.add('line continuation');
        literal(text[i + 1]!);
        inWord = true;
      }
      i += 2;
      continue;
    }
    if (c === ' ' || c === '\t') {
      flush();
      i += 1;
      continue;
    }
    if (c === '\n') {
      flush();
      tokens.push({ kind: 'op', value: ';' });
      i += 1;
      continue;
    }
    const three = text.slice(i, i + 3);
    const two = text.slice(i, i + 2);
    if (three === '2>>' && !inWord) {
      tokens.push({ kind: 'op', value: '2>>' });
      i += 3;
      continue;
    }
    if (three === '2>&' && !inWord && text[i + 3] === '1') {
      flush();
      tokens.push({ kind: 'op', value: '2>&1' });
      i += 4;
      continue;
    }
    if ((two === '2>' || two === '1>') && !inWord) {
      tokens.push({ kind: 'op', value: two === '2>' ? '2>' : '>' });
      i += 2;
      continue;
    }
    if (two === '<<') {
      reasons.add('heredoc or here-string (<<)');
      flush();
      tokens.push({ kind: 'op', value: '<<' });
      i += 2;
      continue;
    }
    if (two === '&&' || two === '||' || two === '>>') {
      flush();
      tokens.push({ kind: 'op', value: two });
      i += 2;
      continue;
    }
    if (two === '&>' || two === '>&' || two === '<(' || two === '>(' || two === '|&' || two === '<&') {
      reasons.add(`shell redirection or process substitution (${two})`);
      flush();
      tokens.push({ kind: 'op', value: two });
      i += 2;
      continue;
    }
    if (c === '|' || c === ';' || c === '<' || c === '>') {
      flush();
      tokens.push({ kind: 'op', value: c });
      i += 1;
      continue;
    }
    if (c === '&') {
      reasons.add('background operator (&)');
      flush();
      tokens.push({ kind: 'op', value: ';' });
      i += 1;
      continue;
    }
    if (c === '$') reasons.add('variable or command substitution ($)');
    if (c === '`') reasons.add('command substitution (backticks)');
    if (c === '(' || c === ')') reasons.add('subshell or grouping ( )');
    if (c === '*' || c === '?' || (c === '[' && /^\[[^\s\]]+\]/.test(text.slice(i)))) {
      word += c;
      pattern += c;
      globbed = true;
      inWord = true;
      i += 1;
      continue;
    }
    if (c === '{' && /^\{[^}]*[,.][^}]*\}/.test(text.slice(i))) reasons.add('brace expansion ({a,b})');
    if (c === '~' && !inWord) reasons.add('tilde expansion (~)');
    if (c === '#' && !inWord) {
      reasons.add('comment (#)');
      break;
    }
    literal(c);
    inWord = true;
    i += 1;
  }
  flush();
  return tokens;
}

const redirectOps: Record<string, Redirect['op'] | undefined> = { '<': '<', '>': '>', '>>': '>>', '2>': '>', '2>>': '>>' };

function buildSteps(tokens: Token[], reasons: Set<string>): PlanStep[] {
  const steps: PlanStep[] = [];
  let connector: Connector | null = null;
  let pipeline: PlanCommand[] = [];
  let current: PlanCommand = { argv: [], redirects: [] };
  const endCommand = (op: string) => {
    if (current.argv.length === 0) reasons.add(`empty command before "${op}"`);
    else pipeline.push(current);
    current = { argv: [], redirects: [] };
  };
  const endStep = (op: string) => {
    endCommand(op);
    if (pipeline.length) steps.push({ connector, pipeline });
    pipeline = [];
  };
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.kind === 'word') {
      if (token.glob !== undefined) {
        if (current.argv.length === 0) reasons.add('glob pattern as the command name');
        current.globs = { ...current.globs, [current.argv.length]: token.glob };
      }
      current.argv.push(token.value);
      continue;
    }
    const op = token.value;
    if (op === '|') {
      endCommand(op);
      continue;
    }
    if (op === ';' || op === '&&' || op === '||') {
      if (op === ';' && current.argv.length === 0 && pipeline.length === 0) continue;
      endStep(op);
      connector = op;
      continue;
    }
    if (op === '2>&1') {
      current.redirects.push({ fd: 2, op: '>&1' });
      continue;
    }
    const redirectOp = redirectOps[op];
    const next = tokens[i + 1];
    if (redirectOp && next?.kind === 'word') {
      if (next.glob !== undefined) reasons.add('glob pattern in a redirection');
      const fd = op === '<' ? 0 : op.startsWith('2') ? 2 : 1;
      current.redirects.push({ fd, op: redirectOp, target: next.value });
      i += 1;
      continue;
    }
    if (redirectOp) reasons.add(`redirection "${op}" without a file`);
  }
  if (current.argv.length || current.redirects.length) endCommand('end');
  if (pipeline.length) steps.push({ connector, pipeline });
  else if (connector === '&&' || connector === '||') reasons.add(`command ends with "${connector}"`);
  return steps;
}

function baseName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

function classifyCommands(steps: PlanStep[], reasons: Set<string>): void {
  for (const step of steps) {
    step.pipeline.forEach((command, index) => {
      const argv = command.argv;
      if (argv.length === 0) return;
      const name = baseName(argv[0]!);
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0]!)) reasons.add('environment assignment before a command (NAME=value cmd)');
      if (shellBuiltins.has(name)) reasons.add(`shell builtin "${name}"`);
      if (shellOnlyInterpreters.has(name)) {
        if (argv.includes('-c') || argv.some((a) => /^-[a-z]*c[a-z]*$/.test(a))) reasons.add(`${name} -c runs a shell script`);
        else reasons.add(`${name} is a shell`);
      }
      argv.slice(1).forEach((word, at) => {
        const next = argv[at + 2];
        if (shellOnlyInterpreters.has(baseName(word)) && next !== undefined && /^-[a-z]*c[a-z]*$/.test(next)) {
          reasons.add(`${name} starts a shell (${baseName(word)} ${next})`);
        }
      });
      if (name === 'env' && argv.some((a) => a === '-S' || a.startsWith('-S') || a.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(a))) {
        reasons.add('env -S splits a string into a command line');
      }
      const readsStdin = index > 0 || command.redirects.some((r) => r.fd === 0);
      if (readsStdin && stdinInterpreters.has(name)) reasons.add(`${name} reads a program from stdin`);
    });
  }
}

export function parseCommand(text: string): ExecPlan {
  const reasons = new Set<string>();
  if (hasInvisible(text)) reasons.add('control or invisible characters that display differently from what runs');
  const tokens = tokenize(text, reasons);
  const steps = buildSteps(tokens, reasons);
  if (steps.length === 0) reasons.add('no command');
  classifyCommands(steps, reasons);
  return { text, steps, shellRequired: reasons.size > 0, shellReasons: [...reasons] };
}

/** Every command of the plan, in order. */
export function planCommands(plan: ExecPlan): PlanCommand[] {
  return plan.steps.flatMap((step) => step.pipeline);
}
