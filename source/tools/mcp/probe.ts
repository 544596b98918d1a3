import { McpConnection, type McpServerConfig } from './connection.js';
import type { StderrLine } from './stderr-log.js';

export interface McpProbeReport {
  name: string;
  ok: boolean;
  /** Spawn (stdio) or first request (HTTP) through the initialize handshake. */
  initializeMs?: number;
  /** Listing tools, prompts, resources and templates. */
  listMs?: number;
  /** A ping round trip on the open connection. */
  pingMs?: number;
  tools: string[];
  skippedTools: Array<{ name: string; reason: string }>;
  warnings: string[];
  prompts: string[];
  resources: number;
  templates: number;
  error?: string;
  stderr: StderrLine[];
}

/**
 * Connects to one server once, on its own (not through a gateway), lists
 * what it offers and times each step: what `claw mcp test NAME` prints.
 */
export async function probeMcpServer(name: string, config: McpServerConfig, timeoutMs = 30_000): Promise<McpProbeReport> {
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const connection = new McpConnection(
    name,
    { ...config, enabled: true },
    {
      // One attempt: a retry would only hide the first failure's timing.
      backoff: { initialMs: 2 ** 30, maxMs: 2 ** 30 },
      connectTimeoutMs: timeoutMs,
      now: Date.now,
      roots: () => [],
      onCatalog: () => {},
      onState: () => {
        if (connection.state === 'ready' || connection.state === 'error') settle();
      },
    },
  );
  connection.start();
  await settled;
  const { catalog } = connection;
  const report: McpProbeReport = {
    name,
    ok: connection.state === 'ready',
    tools: catalog.tools.map((tool) => tool.name),
    skippedTools: catalog.skipped,
    warnings: catalog.warnings,
    prompts: catalog.prompts.map((prompt) => prompt.name),
    resources: catalog.resources.length,
    templates: catalog.templates.length,
    stderr: [],
  };
  if (connection.timings) {
    report.initializeMs = Math.round(connection.timings.initializeMs);
    report.listMs = Math.round(connection.timings.listMs);
    report.pingMs = await connection.pingMs();
  }
  if (connection.lastError) report.error = connection.lastError;
  await connection.close();
  report.stderr = connection.stderr.lines();
  return report;
}
