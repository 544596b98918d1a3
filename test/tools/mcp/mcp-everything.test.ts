import { afterEach, describe, expect, it } from 'vitest';
import { CommandRegistry } from '../../../source/agent/index.js';
import { configSchema } from '../../../source/config/index.js';
import { mcpPromptSlashCommands } from '../../../source/mcp/index.js';
import { elicitationFields } from '../../../source/protocol/index.js';
import { formKey, selectActiveElicitation } from '../../../source/tui/store/elicitation.js';
import { initialState } from '../../../source/tui/store/state.js';
import { TuiStore } from '../../../source/tui/store/store.js';
import { createProviders } from '../../../source/providers/index.js';
import { ElicitationInbox, RESOURCE_TOOL_NAME } from '../../../source/tools/mcp/index.js';
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
      // The question goes through the TUI's store and form, answered key by key as an operator would.
      const tui = new TuiStore(initialState(), { frameMs: 1 });
      cleanups.push(() => tui.dispose());
      const forms: string[] = [];
      elicitations.on((event, record) => {
        tui.applyEvent(event === 'requested' ? 'mcp.elicitation.requested' : 'mcp.elicitation.resolved', { elicitation: record });
        if (event !== 'requested') return;
        const shown = selectActiveElicitation(tui.getState())!;
        let form = tui.getState().ui.elicitation!;
        for (const field of elicitationFields(shown.schema)) {
          forms.push(`${field.name}:${field.kind}`);
          const typed = field.kind === 'enum' ? '1' : field.kind === 'boolean' ? 'y' : field.kind === 'string' ? (field.required ? 'claw' : '') : '1';
          for (const ch of typed) form = formKey(shown, form, { text: ch }).form;
          const step = formKey(shown, form, { enter: true });
          if (step.form.error) throw new Error(`the TUI form refused "${typed}" for ${field.name}: ${step.form.error}`);
          form = step.form;
          if (step.answer) setImmediate(() => elicitations.respond(record.id, step.answer!, 'tui'));
        }
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

      // A server prompt runs as a slash command of the one registry, and its messages start a turn.
      const started: string[] = [];
      const commands = new CommandRegistry(
        mcpPromptSlashCommands(env.manager, new Set(), async (_key, text) => {
          started.push(text);
          return { runId: 'r1' };
        }),
      );
      const simple = env.manager.prompts('everything').find((p) => /simple/i.test(p.prompt));
      expect(simple).toBeDefined();
      const name = simple!.command.toLowerCase();
      expect(name).toMatch(/^mcp__everything__simple/);
      expect(commands.knows(`/${name}`)).toBe(true);
      const ran = await commands.run(`/${name}`, { sessionKey: 'agent:main:main' } as never);
      expect(ran.reply).toContain(`prompt of MCP server "everything"`);
      expect(started).toHaveLength(1);
      expect(started[0]!.length).toBeGreaterThan(0);

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
      expect(forms.length).toBeGreaterThan(0);
      expect(selectActiveElicitation(tui.getState())).toBeUndefined();
    });
  }
});
