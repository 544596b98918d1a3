import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { writeFileAtomicSync } from '../../config/index.js';

const redirect = lazySchema(() =>
  z.strictObject({
    fd: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    op: z.enum(['<', '>', '>>', '>&1']),
    target: z.string().optional(),
  }),
);

/**
 * An allowlist rule. A command rule binds everything that decides what runs:
 * the resolved executable, the exact argv, redirections, the env the call
 * set, the workdir, the network grant and, for a script inside the roots,
 * its content hash (a rewritten `./build.sh` asks again). `args` are
 * literals; only a rule the operator marks `pattern: true` reads `*` inside
 * an element as a wildcard and a final `...` as "any further arguments".
 * A text rule remembers an approved shell command the same way.
 */
const bound = () => ({
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  network: z.boolean().optional(),
  addedAt: z.number().optional(),
});
export const execRule = lazySchema(() =>
  z.union([
    z.strictObject({
      executable: z.string().startsWith('/'),
      args: z.array(z.string()).optional(),
      pattern: z.boolean().optional(),
      redirects: z.array(redirect).optional(),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
      ...bound(),
    }),
    z.strictObject({ text: z.string().min(1), ...bound() }),
  ]),
);
export type ExecRule = z.infer<typeof execRule>;
export type CommandRule = Extract<ExecRule, { executable: string }>;

export const execSecurity = lazySchema(() => z.enum(['deny', 'allowlist', 'full']));
export const execAsk = lazySchema(() => z.enum(['off', 'on-miss', 'always']));

const agentPolicy = lazySchema(() =>
  z.strictObject({
    security: execSecurity.optional(),
    ask: execAsk.optional(),
    rules: z.array(execRule).default([]),
  }),
);

export const execApprovalsFile = lazySchema(() =>
  z.strictObject({
    version: z.literal(1).default(1),
    security: execSecurity.default('allowlist'),
    ask: execAsk.default('on-miss'),
    /** Whether the built-in list of read-only commands counts as allowed. */
    safeList: z.boolean().default(true),
    agents: z.record(z.string(), agentPolicy).default({}),
  }),
);
export type ExecApprovalsFile = z.output<typeof execApprovalsFile>;

export interface AgentExecPolicy {
  security: z.output<typeof execSecurity>;
  ask: z.output<typeof execAsk>;
  safeList: boolean;
  rules: ExecRule[];
}

export function agentExecPolicy(file: ExecApprovalsFile, agentId: string): AgentExecPolicy {
  const agent = file.agents[agentId];
  return {
    security: agent?.security ?? file.security,
    ask: agent?.ask ?? file.ask,
    safeList: file.safeList,
    rules: agent?.rules ?? [],
  };
}

/** Reads `exec-approvals.json`; a missing file means the defaults (allowlist + on-miss). */
export function readExecApprovalsFile(path: string): ExecApprovalsFile {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return execApprovalsFile.parse({});
    throw error;
  }
  const parsed = execApprovalsFile.safeParse(JSON.parse(raw));
  if (!parsed.success) {
    throw new Error(
      `${path} is not a valid exec approvals file (${parsed.error.issues[0]?.message ?? 'invalid'}). Fix or delete it; deleting restores the defaults.`,
    );
  }
  return parsed.data;
}

export function writeExecApprovalsFile(path: string, file: ExecApprovalsFile): void {
  writeFileAtomicSync(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
}

/** Adds rules for an agent unless an identical one exists; returns the file as written. */
export function addExecRules(path: string, agentId: string, rules: ExecRule[]): ExecApprovalsFile {
  const file = readExecApprovalsFile(path);
  const agent = file.agents[agentId] ?? { rules: [] };
  for (const rule of rules) {
    const key = ruleText(rule);
    if (!agent.rules.some((existing) => ruleText(existing) === key)) agent.rules.push(rule);
  }
  file.agents[agentId] = agent;
  writeExecApprovalsFile(path, file);
  return file;
}

export function ruleText(rule: ExecRule): string {
  const extras = [
    rule.cwd !== undefined ? `in ${rule.cwd}` : '',
    rule.env && Object.keys(rule.env).length
      ? `env ${Object.entries(rule.env)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(' ')}`
      : '',
    rule.network ? 'with network' : '',
  ].filter(Boolean);
  const suffix = extras.length ? ` (${extras.join(', ')})` : '';
  if ('text' in rule) return `text: ${rule.text}${suffix}`;
  const args = rule.args ?? (rule.pattern ? ['...'] : []);
  const redirects = (rule.redirects ?? []).map((r) => (r.op === '>&1' ? '2>&1' : `${r.fd === 2 ? '2' : ''}${r.op}${JSON.stringify(r.target ?? '')}`));
  const hash = rule.sha256 ? ` [sha256 ${rule.sha256.slice(0, 12)}]` : '';
  return `${[rule.executable, ...args.map((a) => JSON.stringify(a)), ...redirects].join(' ')}${rule.pattern ? ' [pattern]' : ''}${hash}${suffix}`;
}

function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

function patternMatches(pattern: readonly string[], args: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i += 1) {
    const p = pattern[i]!;
    if (p === '...' && i === pattern.length - 1) return true;
    const arg = args[i];
    if (arg === undefined || !globMatch(p, arg)) return false;
  }
  return args.length === pattern.length;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function sameEnv(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>>): boolean {
  const left = Object.entries(a ?? {}).sort(([x], [y]) => x.localeCompare(y));
  const right = Object.entries(b).sort(([x], [y]) => x.localeCompare(y));
  return left.length === right.length && left.every(([k, v], i) => right[i]![0] === k && right[i]![1] === v);
}

/** What a rule is matched against: one command of a plan, with the plan-wide parts. */
export interface RuleSubject {
  executable: string;
  args: readonly string[];
  redirects: readonly { fd: number; op: string; target?: string | undefined }[];
  sha256?: string | undefined;
  env: Readonly<Record<string, string>>;
  cwd: string;
  network: boolean;
}

function boundMatches(rule: ExecRule, subject: Pick<RuleSubject, 'env' | 'cwd' | 'network'>): boolean {
  return sameEnv(rule.env, subject.env) && (rule.cwd === undefined || rule.cwd === subject.cwd) && (!subject.network || rule.network === true);
}

export function ruleMatchesCommand(rule: ExecRule, subject: RuleSubject): boolean {
  if ('text' in rule || rule.executable !== subject.executable || !boundMatches(rule, subject)) return false;
  const argsOk = rule.pattern ? patternMatches(rule.args ?? ['...'], subject.args) : sameList(rule.args ?? [], subject.args);
  if (!argsOk) return false;
  const redirects = (rule.redirects ?? []).map((r) => JSON.stringify([r.fd, r.op, r.target ?? '']));
  if (
    !sameList(
      redirects,
      subject.redirects.map((r) => JSON.stringify([r.fd, r.op, r.target ?? ''])),
    )
  )
    return false;
  return rule.sha256 === undefined || rule.sha256 === subject.sha256;
}

export function ruleMatchesText(rule: ExecRule, text: string, subject: Pick<RuleSubject, 'env' | 'cwd' | 'network'>): boolean {
  return 'text' in rule && rule.text === text && boundMatches(rule, subject);
}
