import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Tools a client offers the model from this server (every tool but the task-only one). */
export const TEST_TOOL_COUNT = 15;

/** A 1×1 PNG, for image results. */
export const TEST_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * The MCP server both test transports serve: plain tools, one that is slow,
 * one that kills the whole process mid-call, and ones that change the tool list
 * (which makes the SDK send notifications/tools/list_changed); a prompt with
 * argument completion, resources and a template; tools that report progress,
 * return an image or a resource link, ask the user (elicitation), list the
 * client's roots; and one task-only tool a plain client must leave out.
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
    added.set(
      name,
      server.registerTool(name, { description: `Added at runtime: ${name}.`, inputSchema: {} }, async () => text(`${name} ran`)),
    );
    return text(`added ${name}`);
  });
  server.registerTool('remove_tool', { description: 'Remove a tool added by add_tool.', inputSchema: { name: z.string() } }, async ({ name }) => {
    added.get(name)?.remove();
    added.delete(name);
    return text(`removed ${name}`);
  });
  server.registerTool(
    'progress',
    { description: 'Report progress steps times, every ms milliseconds.', inputSchema: { steps: z.number().int(), ms: z.number().int() } },
    async ({ steps, ms }, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: steps, message: `step ${step}` },
          });
      }
      return text(`done after ${steps} steps`);
    },
  );
  server.registerTool('image', { description: 'Return a tiny PNG.', inputSchema: {} }, async () => ({
    content: [
      { type: 'text' as const, text: 'here is a pixel' },
      { type: 'image' as const, data: TEST_PNG_BASE64, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('link', { description: 'Return a link to the readme resource.', inputSchema: {} }, async () => ({
    content: [{ type: 'resource_link' as const, uri: 'test://readme', name: 'readme', mimeType: 'text/plain' }],
  }));
  server.registerTool('ask', { description: 'Ask the user for their name and age.', inputSchema: {} }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Who are you?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', minimum: 0 } }, required: ['name'] },
    });
    return text(JSON.stringify(answer));
  });
  server.registerTool('sample', { description: "Ask the client's model to answer prompt.", inputSchema: { prompt: z.string() } }, async ({ prompt }) => {
    const answer = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      systemPrompt: 'Answer briefly.',
      maxTokens: 100_000,
    });
    return text(JSON.stringify(answer));
  });
  server.registerTool('roots', { description: "List the client's roots.", inputSchema: {} }, async () =>
    text(JSON.stringify((await server.server.listRoots()).roots)),
  );
  server.registerTool('add_prompt', { description: 'Register a prompt called name.', inputSchema: { name: z.string() } }, async ({ name }) => {
    server.registerPrompt(name, { description: `Added at runtime: ${name}.` }, () => ({
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `${name} says hi` } }],
    }));
    return text(`added prompt ${name}`);
  });
  const taskOnly = server.registerTool('task_only', { description: 'Only runs as a task.', inputSchema: {} }, async () => text('never'));
  // What registerToolTask declares; this server never runs it, the client must leave it out.
  taskOnly.execution = { taskSupport: 'required' };

  server.registerPrompt(
    'greet',
    {
      title: 'Greeting',
      description: 'Greet someone in a style.',
      argsSchema: { name: completable(z.string(), (value) => ['Ada', 'Alan', 'Grace'].filter((name) => name.startsWith(value))), style: z.string().optional() },
    },
    ({ name, style }) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Greet ${name} in a ${style ?? 'plain'} way.` } }] }),
  );
  server.registerResource('readme', 'test://readme', { title: 'Read me', mimeType: 'text/plain', description: 'The test readme.' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `readme of ${flavour}` }],
  }));
  server.registerResource(
    'item',
    new ResourceTemplate('test://items/{id}', { list: undefined }),
    { title: 'Item', description: 'An item by id.' },
    async (uri, { id }) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `item ${String(id)}` }],
    }),
  );
  return server;
}
