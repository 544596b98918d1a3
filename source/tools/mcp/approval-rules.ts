import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { writeFileAtomicSync, type StatePaths, type Clock } from '../../config/index.js';
import type { ApprovalRecord } from '../../protocol/index.js';
import type { AlwaysEffect } from '../approvals/inbox.js';

/** The plan an MCP approval request carries, so an "always" knows which tool it allows. */
export interface McpApprovalPlan {
  server: string;
  tool: string;
}

const rule = lazySchema(() => z.strictObject({ server: z.string(), tool: z.string(), addedAt: z.number().optional() }));
const fileShape = lazySchema(() =>
  z.strictObject({
    version: z.literal(1).default(1),
    /** Per agent, the MCP tools an operator allowed with "always". */
    agents: z.record(z.string(), z.array(rule)).default({}),
  }),
);
type McpApprovalsFile = z.output<typeof fileShape>;

export function mcpApprovalsFile(paths: StatePaths): string {
  return join(paths.root, 'mcp-approvals.json');
}

function readRules(path: string): McpApprovalsFile {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, agents: {} };
    throw error;
  }
  const parsed = fileShape.safeParse(JSON.parse(raw));
  if (!parsed.success)
    throw new Error(
      `${path} is not a valid MCP approvals file (${parsed.error.issues[0]?.message ?? 'invalid'}). Fix or delete it; deleting forgets the MCP tools allowed with "always".`,
    );
  return parsed.data;
}

const key = (agentId: string, server: string, tool: string) => `${agentId}\u0000${server}\u0000${tool}`;

export function parseMcpPlan(plan: unknown): McpApprovalPlan | undefined {
  const parsed = z.object({ server: z.string(), tool: z.string() }).safeParse(plan);
  return parsed.success ? { server: parsed.data.server, tool: parsed.data.tool } : undefined;
}

export function describeMcpRule(agentId: string, plan: McpApprovalPlan, file: string): string {
  return `MCP tool "${plan.tool}" of server "${plan.server}" runs without asking for agent ${agentId} (stored in ${file}; delete the entry to be asked again)`;
}

/**
 * What `always` means for an MCP request: the tool joins the agent's list in
 * mcp-approvals.json, which the gateway reads again at start, the way exec
 * rules live in exec-approvals.json.
 */
export function mcpAlwaysHandler(file: string, clock: Pick<Clock, 'now'>) {
  return (record: ApprovalRecord, history: readonly ApprovalRecord[]): AlwaysEffect | undefined => {
    const plan = record.kind === 'mcp' ? parseMcpPlan(record.plan) : undefined;
    if (!plan) return undefined;
    const rules = readRules(file);
    const list = rules.agents[record.agentId] ?? [];
    if (!list.some((r) => r.server === plan.server && r.tool === plan.tool)) list.push({ ...plan, addedAt: clock.now() });
    rules.agents[record.agentId] = list;
    writeFileAtomicSync(file, `${JSON.stringify(rules, null, 2)}\n`, 0o600);
    const same = history
      .filter((r) => r.kind === 'mcp' && r.agentId === record.agentId && r.id !== record.id)
      .filter((r) => {
        const other = parseMcpPlan(r.plan);
        return other?.server === plan.server && other.tool === plan.tool;
      });
    return { rule: describeMcpRule(record.agentId, plan, file), wouldMatch: [...new Set(same.map((r) => r.command))] };
  };
}

/**
 * Which MCP tools may run without asking: "always" answers (from the file at
 * start, and those given since) and "session" answers (until restart).
 */
export class McpApprovalMemory {
  readonly #always = new Set<string>();
  readonly #perSession = new Set<string>();

  constructor(file?: string) {
    if (!file) return;
    for (const [agentId, list] of Object.entries(readRules(file).agents)) for (const r of list) this.#always.add(key(agentId, r.server, r.tool));
  }

  allows(agentId: string, sessionKey: string, plan: McpApprovalPlan): boolean {
    return this.#always.has(key(agentId, plan.server, plan.tool)) || this.#perSession.has(`${sessionKey}\u0000${key(agentId, plan.server, plan.tool)}`);
  }

  remember(agentId: string, sessionKey: string, plan: McpApprovalPlan, decision: string | undefined): void {
    if (decision === 'always') this.#always.add(key(agentId, plan.server, plan.tool));
    if (decision === 'session') this.#perSession.add(`${sessionKey}\u0000${key(agentId, plan.server, plan.tool)}`);
  }
}
