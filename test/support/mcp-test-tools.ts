import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * The MCP server both test transports serve: plain tools, one that is slow,
 * one that kills the whole process mid-call, and ones that change the tool list
 * (which makes the SDK send notifications/tools/list_changed).
 */
export function buildTestMcpServer(flavour: string): McpServer {
  const server = new McpServer({ name: `claw-test-${flavour}`, version: '1.0.0' });
  const added = new Map<string, RegisteredTool>();
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

  server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } }, async ({ text: value }) => text(`echo: ${value}`));
  server.registerTool('add', { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => text(String(a + b)));
  server.registerTool('slow', { description: 'Answer after ms milliseconds.', inputSchema: { ms: z.number().int() } }, async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return text(`slept ${ms}`);
  });
  server.registerTool('fail', { description: 'Return a tool error.', inputSchema: {} }, async () => ({ ...text('it went wrong on purpose'), isError: true }));
  server.registerTool('whoami', { description: 'Report flavour, pid, cwd and MCP_TEST_TAG.', inputSchema: {} }, async () =>
    text(JSON.stringify({ flavour, pid: process.pid, cwd: process.cwd(), tag: process.env.MCP_TEST_TAG ?? null })),
  );
  server.registerTool('crash', { description: 'Exit the server process without answering.', inputSchema: {} }, async () => {
    process.stderr.write('test server: crashing on request\n');
    process.exit(3);
  });
  server.registerTool('add_tool', { description: 'Register a new tool called name.', inputSchema: { name: z.string() } }, async ({ name }) => {
    added.set(name, server.registerTool(name, { description: `Added at runtime: ${name}.`, inputSchema: {} }, async () => text(`${name} ran`)));
    return text(`added ${name}`);
  });
  server.registerTool('remove_tool', { description: 'Remove a tool added by add_tool.', inputSchema: { name: z.string() } }, async ({ name }) => {
    added.get(name)?.remove();
    added.delete(name);
    return text(`removed ${name}`);
  });
  return server;
}
