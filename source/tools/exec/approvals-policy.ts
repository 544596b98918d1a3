import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../config/index.js';

/**
 * An allowlist rule: either an exact command text (how shell-required
 * commands are remembered) or a resolved executable with an argument
 * pattern. In `args`, `*` inside an element matches within one argument and
 * a final `...` matches any remaining arguments.
 */
export const execRule = z.union([
  z.strictObject({ executable: z.string().startsWith('/'), args: z.array(z.string()).default(['...']), addedAt: z.number().optional() }),
  z.strictObject({ text: z.string().min(1), addedAt: z.number().optional() }),
]);
export type ExecRule = z.infer<typeof execRule>;

export const execSecurity = z.enum(['deny', 'allowlist', 'full']);
export const execAsk = z.enum(['off', 'on-miss', 'always']);

const agentPolicy = z.strictObject({
  security: execSecurity.optional(),
  ask: execAsk.optional(),
  rules: z.array(execRule).default([]),
});

export const execApprovalsFile = z.strictObject({
  version: z.literal(1).default(1),
  security: execSecurity.default('allowlist'),
  ask: execAsk.default('on-miss'),
  /** Whether the built-in list of read-only commands counts as allowed. */
  safeList: z.boolean().default(true),
  agents: z.record(z.string(), agentPolicy).default({}),
});
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
    throw new Error(`${path} is not a valid exec approvals file (${parsed.error.issues[0]?.message ?? 'invalid'}). Fix or delete it; deleting restores the defaults.`);
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
  if ('text' in rule) return `text: ${rule.text}`;
  return [rule.executable, ...rule.args.map((a) => JSON.stringify(a))].join(' ');
}

function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

export function ruleMatchesArgv(rule: ExecRule, executable: string, args: readonly string[]): boolean {
  if ('text' in rule || rule.executable !== executable) return false;
  const pattern = rule.args;
  for (let i = 0; i < pattern.length; i += 1) {
    const p = pattern[i]!;
    if (p === '...' && i === pattern.length - 1) return true;
    const arg = args[i];
    if (arg === undefined || !globMatch(p, arg)) return false;
  }
  return args.length === pattern.length;
}
