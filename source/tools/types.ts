import type { z } from 'zod';

export const toolGroups = ['fs', 'runtime', 'web', 'memory', 'sessions', 'messaging', 'automation', 'mcp', 'plugins'] as const;
export type ToolGroup = (typeof toolGroups)[number];
export type ToolRisk = 'low' | 'medium' | 'high';

/** A JSON Schema object describing a tool's arguments, as sent to the model. */
export interface JsonSchemaObject {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean | Record<string, unknown>;
  [key: string]: unknown;
}

/** An image or a sound a tool returned, base64; the agent stores it beside the transcript and providers that accept it get it as a content part. */
export interface ToolMedia {
  kind: 'image' | 'audio';
  mimeType: string;
  /** Base64, as MCP carries it. */
  data: string;
}

export interface ToolResult {
  /** What the model reads. */
  content: string;
  isError: boolean;
  /** Images and audio for providers that take them; `content` still describes each one for those that do not. */
  media?: ToolMedia[];
  /** Structured extras for clients (exit code, paths touched, …); never shown to the model. */
  details?: Record<string, unknown>;
}

export type ApprovalKind = 'exec' | 'mcp' | 'acp' | 'fs' | 'spend' | 'browser' | 'plugin';
export type ApprovalDecision = 'once' | 'session' | 'always' | 'deny';

/** What a tool asks the operator to allow. `command` is what the operator reads (made visible by every client). */
export interface ApprovalRequestInput {
  kind: ApprovalKind;
  command: string;
  /**
   * What a `session` decision remembers, within this kind only: the canonical
   * plan key for exec (so a different env, workdir or redirection asks again).
   * Defaults to `command`.
   */
  binding?: string;
  plan?: unknown;
  cwd: string;
  envKeys: string[];
  reason: string;
}

export interface ApprovalOutcome {
  id: string;
  approved: boolean;
  /** Absent when the request expired or was cancelled. */
  decision?: ApprovalDecision;
  status: 'approved' | 'denied' | 'expired';
  /** Who answered (`tui:…`, `telegram:Ada`), or `cancelled` / `timeout` when nobody did. */
  resolvedBy?: string;
}

/** How a tool reaches an operator decision; the gateway's approval inbox implements it. */
export interface ApprovalGate {
  request(input: ApprovalRequestInput, signal?: AbortSignal): Promise<ApprovalOutcome>;
  /** Whether this binding of this kind was approved with `session` earlier in the same session; kinds never share approvals. */
  approvedForSession(kind: ApprovalKind, binding: string): boolean;
}

export interface ToolContext {
  agentId: string;
  /** A child's line of agents (session `actingFor`): a command runs unasked only if every one's exec policy lets it. */
  actingForAgents?: readonly string[];
  /** Whom the turn acts for: the least trusted of its own principal and its line's (absent: the owner). */
  principal?: string;
  /** `auto-edit`: the owner let sandboxed commands run unasked in this session (`/mode`); set only for the owner's turns. */
  approvalMode?: 'ask' | 'auto-edit' | 'plan';
  sessionKey: string;
  /** `main`, `direct`, `group`, `cron`, `hook`, `subagent`, … (routing decides). */
  sessionType: string;
  workspaceDir: string;
  signal: AbortSignal;
  /** Streams partial output (e.g. exec stdout) to clients while the tool runs. */
  onUpdate(text: string): void;
  approvals: ApprovalGate;
}

/**
 * A tool as the agent sees it. `input` (zod) is optional: when absent the
 * registry validates against `parameters` (e.g. MCP tools that only bring a
 * JSON Schema). Arguments reach `execute` already validated.
 */
export interface ToolDefinition<A = Record<string, unknown>> {
  name: string;
  group: ToolGroup;
  description: string;
  risk: ToolRisk;
  parameters: JsonSchemaObject;
  input?: z.ZodType<A>;
  execute(args: A, context: ToolContext): Promise<ToolResult>;
}

export function toolError(content: string, details?: Record<string, unknown>): ToolResult {
  return details ? { content, isError: true, details } : { content, isError: true };
}

export function toolOk(content: string, details?: Record<string, unknown>): ToolResult {
  return details ? { content, isError: false, details } : { content, isError: false };
}
