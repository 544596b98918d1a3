import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../../source/config/index.js';
import { createProviders } from '../../../source/providers/index.js';
import { ElicitationInbox, RESOURCE_TOOL_NAME, promptArguments } from '../../../source/tools/mcp/index.js';
import { startFakeAnthropic } from '../../support/fake-anthropic-server.js';
import { mcpTestEnv } from '../../support/mcp-env.js';
import { everythingEntry, startEverythingHttp } from '../../support/mcp-everything.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const entry = everythingEntry();

/** The reference server renamed its tools over releases (camelCase, then kebab-case): find each by what it does. */
function toolNamed(tools: string[], pattern: RegExp): string {
  const found = tools.find((name) => pattern.test(name));
  if (!found) throw new Error(`server-everything offers no tool matching ${pattern}: ${tools.join(', ')}`);
  return found;
}

// Runs when the devDependency is installed (`npm i -D -E @modelcontextprotocol/server-everything`).
describe.skipIf(!entry)('the reference server-everything from the npm registry', { timeout: 120_000 }, () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`works over ${transport}: echo, a resource read, a prompt as a slash command, progress, an image, an elicitation`, async () => {
      let config: Record<string, unknown>;
      if (transport === 'stdio') {
        config = { command: process.execPath, args: [entry!, 'stdio'], trust: 'allow', timeoutMs: 30_000 };
      } else {
        const server = await startEverythingHttp(entry!);
        cleanups.push(() => server.stop());
        config = { type: 'http', url: server.url, trust: 'allow', timeoutMs: 30_000 };
      }
      const elicitations = new ElicitationInbox({ timeoutMs: 30_000 });
      cleanups.push(() => elicitations.close());
      elicitations.on((event, record) => {
        if (event !== 'requested') return;
        // Answer every field the form requires with a value of its type, as the TUI form would.
        const content: Record<string, string | number | boolean> = {};
        for (const name of record.schema.required ?? []) {
          const field = record.schema.properties[name] as { type?: string; enum?: string[] };
          content[name] = field.enum?.[0] ?? (field.type === 'boolean' ? true : field.type === 'number' || field.type === 'integer' ? 1 : 'claw');
        }
        setImmediate(() => elicitations.respond(record.id, { action: 'accept', content }, 'test'));
      });
      const env = mcpTestEnv({ everything: config }, cleanups, {
        elicit: (server, params, signal) => elicitations.ask(server, params, signal),
        connectTimeoutMs: 60_000,
      });
      await env.ready('everything');
      const tools = env.status('everything').tools;

      const echo = await env.registry.invoke(toolNamed(tools, /__echo$/), { message: 'hello everything' }, env.context);
      expect(echo.content).toContain('hello everything');

      const { resources } = env.manager.resources('everything');
      expect(resources.length).toBeGreaterThan(0);
      const read = await env.registry.invoke(RESOURCE_TOOL_NAME, { server: 'everything', uri: resources[0]!.uri }, env.context);
      expect(read.isError).toBe(false);

      const simple = env.manager.prompts('everything').find((p) => /simple/i.test(p.prompt));
      expect(simple).toBeDefined();
      expect(simple!.command).toMatch(/^mcp__everything__simple/);
      const args = promptArguments(simple!, '');
      expect(typeof args).toBe('object');
      expect((await env.manager.getPrompt('everything', simple!.prompt, args as Record<string, string>)).messages.length).toBeGreaterThan(0);

      const long = await env.registry.invoke(toolNamed(tools, /long.?running/i), { duration: 1, steps: 3 }, env.context);
      expect(long.isError).toBe(false);
      expect(env.updates.some((update) => /^progress \d+\/3/.test(update))).toBe(true);

      const imageTool = toolNamed(tools, /tiny.?image/i);
      const image = await env.registry.invoke(imageTool, {}, env.context);
      expect(image.content).toMatch(/\[image 1: image\/png, \d+ bytes\]/);
      expect(image.media?.[0]).toMatchObject({ kind: 'image', mimeType: 'image/png' });
      // The image travels to the Anthropic Messages API as an image part of the tool result.
      const llm = await startFakeAnthropic();
      cleanups.push(() => llm.close());
      const providers = createProviders({
        config: configSchema.parse({
          models: { providers: { fake: { api: 'anthropic', baseUrl: llm.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
        }),
        paths: env.state.paths,
        env: {},
      });
      llm.reply({ text: 'a tiny image' });
      const kinds: string[] = [];
      for await (const event of providers.streamTurn({
        model: 'fake/m',
        system: '',
        thinking: 'off',
        tools: [],
        messages: [
          { role: 'user', content: 'show me' },
          { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: imageTool, arguments: {} }] },
          { role: 'toolResult', toolCallId: 'c1', toolName: imageTool, content: image.content, isError: false, attachments: image.media! },
        ],
      }))
        kinds.push(event.type);
      expect(kinds).toContain('done');
      const sent = JSON.stringify(llm.requests[0]!.body);
      expect(sent).toContain(`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${image.media![0]!.data}"}}`);

      const ask = tools.find((name) => /elicitation/i.test(name) && !/async/i.test(name));
      expect(ask, 'an elicitation tool (offered because claw announces the capability)').toBeDefined();
      const answered = await env.registry.invoke(ask!, {}, env.context);
      expect(answered.isError).toBe(false);
      expect(answered.content).toMatch(/accept/i);
    });
  }
});
