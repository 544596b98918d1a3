import { afterEach, describe, expect, it } from 'vitest';
import { ElicitationInbox, RESOURCE_TOOL_NAME, promptArguments } from '../../../source/tools/mcp/index.js';
import { mcpTestEnv } from '../../support/mcp-env.js';
import { startSseMcpServer, stdioServerEntry, waitFor } from '../../support/mcp-servers.js';
import { TEST_PNG_BASE64 } from '../../support/mcp-test-tools.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('MCP client features', { timeout: 90_000 }, () => {
  it('lists prompts as slash commands with arguments, runs them and completes their arguments', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups);
    await env.ready('local');
    expect(env.status('local').promptCount).toBe(1);
    const [greet] = env.manager.prompts();
    expect(greet).toEqual({
      command: 'mcp__local__greet',
      server: 'local',
      prompt: 'greet',
      title: 'Greeting',
      description: 'Greet someone in a style.',
      arguments: [
        { name: 'name', required: true },
        { name: 'style', required: false },
      ],
    });
    const args = promptArguments(greet!, 'Ada style=pirate');
    expect(args).toEqual({ name: 'Ada', style: 'pirate' });
    expect(promptArguments(greet!, '')).toMatch(/needs name: \/mcp__local__greet <name> \[style\]/);
    const result = await env.manager.getPrompt('local', 'greet', args as Record<string, string>);
    expect(result.messages).toEqual([{ role: 'user', text: 'Greet Ada in a pirate way.' }]);
    expect(await env.manager.completePrompt('local', 'greet', 'name', 'A')).toEqual(['Ada', 'Alan']);
    expect(await env.manager.completePrompt('local', 'greet', 'style', 'f')).toEqual([]);
    await expect(env.manager.getPrompt('nowhere', 'greet', {})).rejects.toThrow(/No MCP server named "nowhere" \(configured: local\)/);
  });

  it('refreshes prompts on notifications/prompts/list_changed and reports the change', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups);
    await env.ready('local');
    await env.registry.invoke('mcp__local__add_prompt', { name: 'later' }, env.context);
    await waitFor(() => env.manager.prompts().some((p) => p.prompt === 'later'), 'the added prompt');
    expect(env.changes).toContainEqual({ server: 'local', part: 'prompts' });
    expect((await env.manager.getPrompt('local', 'later', {})).messages[0]!.text).toBe('later says hi');
  });

  it('lists and reads resources and templates, through the manager and the mcp_resource tool, and opens resource links', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups);
    await env.ready('local');
    expect(env.manager.resources()).toEqual({
      resources: [{ server: 'local', uri: 'test://readme', name: 'readme', title: 'Read me', mimeType: 'text/plain', description: 'The test readme.' }],
      templates: [{ server: 'local', uriTemplate: 'test://items/{id}', name: 'item', title: 'Item', description: 'An item by id.' }],
    });
    expect(await env.manager.readResource('local', 'test://readme')).toEqual({ text: 'readme of stdio', mimeType: 'text/plain' });

    const listed = await env.registry.invoke(RESOURCE_TOOL_NAME, {}, env.context);
    expect(listed.content).toContain('test://readme  Read me (text/plain) - The test readme.');
    expect(listed.content).toContain('template test://items/{id}  Item - An item by id.');
    const item = await env.registry.invoke(RESOURCE_TOOL_NAME, { server: 'local', uri: 'test://items/42' }, env.context);
    expect(item.isError).toBe(false);
    expect(item.content).toMatch(
      /^<untrusted_content nonce="([0-9a-f]{16})" source="mcp" server="local" resource="test:\/\/items\/42">\nitem 42\n<\/untrusted_content nonce="\1">$/,
    );

    const link = await env.registry.invoke('mcp__local__link', {}, env.context);
    expect(link.content).toContain('[resource link test://readme (readme): read it with mcp_resource {"server": "local", "uri": "test://readme"}]');
    const unknown = await env.registry.invoke(RESOURCE_TOOL_NAME, { server: 'other', uri: 'x://y' }, env.context);
    expect(unknown).toMatchObject({ isError: true, content: 'No MCP server named "other". Servers: local.' });
  });

  it('asks before reading a resource of a trust "ask" server', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry() }, cleanups);
    await env.ready('local');
    const asked: string[] = [];
    env.inbox.on((event, record) => {
      if (event !== 'requested') return;
      asked.push(record.command);
      setImmediate(() => env.inbox.resolve(record.id, 'deny', 'test'));
    });
    const denied = await env.registry.invoke(RESOURCE_TOOL_NAME, { server: 'local', uri: 'test://readme' }, env.context);
    expect(denied).toMatchObject({ isError: true });
    expect(denied.content).toMatch(/Reading test:\/\/readme was not approved \(denied\)/);
    expect(asked).toEqual(['local resources/read test://readme']);
  });

  it('sends a progress token, streams progress to the tool line and lets progress extend the timeout up to the hard maximum', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow', timeoutMs: 400, maxTimeoutMs: 1500 }) }, cleanups);
    await env.ready('local');
    // 6 × 150 ms = 900 ms: more than timeoutMs, but progress arrives every 150 ms.
    const long = await env.registry.invoke('mcp__local__progress', { steps: 6, ms: 150 }, env.context);
    expect(long).toMatchObject({ isError: false });
    expect(long.content).toContain('done after 6 steps');
    // The SDK delivers notifications a tick after responses, so the last step may land after the result.
    expect(env.updates.slice(0, 5)).toEqual([
      'progress 1/6: step 1',
      'progress 2/6: step 2',
      'progress 3/6: step 3',
      'progress 4/6: step 4',
      'progress 5/6: step 5',
    ]);
    // 20 × 150 ms = 3 s: progress keeps it alive, the hard maximum ends it.
    const endless = await env.registry.invoke('mcp__local__progress', { steps: 20, ms: 150 }, env.context);
    expect(endless.isError).toBe(true);
    expect(endless.content).toMatch(/did not answer within 400 ms .*up to maxTimeoutMs 1500 ms/);
  });

  it('offers the workspace and fsRoots as roots', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups, { roots: () => ['/srv/work space', '/data'] });
    await env.ready('local');
    const result = await env.registry.invoke('mcp__local__roots', {}, env.context);
    expect(JSON.parse(/\[.*\]/s.exec(result.content)![0])).toEqual([
      { uri: 'file:///srv/work%20space', name: '/srv/work space' },
      { uri: 'file:///data', name: '/data' },
    ]);
  });

  it('puts a server question to the operator, checks the answer against its form, and declines on timeout', async () => {
    const elicitations = new ElicitationInbox({ timeoutMs: 1500 });
    cleanups.push(() => elicitations.close());
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups, {
      elicit: (server, params, signal) => elicitations.ask(server, params, signal),
    });
    await env.ready('local');
    const seen: string[] = [];
    elicitations.on((event, record) => {
      seen.push(`${event} ${record.status}`);
      if (event !== 'requested') return;
      expect(record).toMatchObject({ server: 'local', message: 'Who are you?', status: 'pending' });
      expect(Object.keys(record.schema.properties)).toEqual(['name', 'age']);
      setImmediate(() => {
        expect(() => elicitations.respond(record.id, { action: 'accept', content: { age: -1 } }, 'tui')).toThrow(
          /does not fit the form of MCP server "local": name: .*age: /,
        );
        elicitations.respond(record.id, { action: 'accept', content: { name: 'Ada', age: 36 } }, 'tui');
      });
    });
    const answered = await env.registry.invoke('mcp__local__ask', {}, env.context);
    expect(answered.content).toContain('{"action":"accept","content":{"name":"Ada","age":36}}');
    expect(seen).toEqual(['requested pending', 'resolved accepted']);

    elicitations.close();
    const quiet = new ElicitationInbox({ timeoutMs: 300 });
    cleanups.push(() => quiet.close());
    const env2 = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups, {
      elicit: (server, params, signal) => quiet.ask(server, params, signal),
    });
    await env2.ready('local');
    const declined = await env2.registry.invoke('mcp__local__ask', {}, env2.context);
    expect(declined.content).toContain('{"action":"decline"}');
    expect(quiet.pending()).toEqual([]);
  });

  it('describes images in tool results for the model and hands them on as media', async () => {
    const env = mcpTestEnv({ local: stdioServerEntry({ trust: 'allow' }) }, cleanups);
    await env.ready('local');
    const image = await env.registry.invoke('mcp__local__image', {}, env.context);
    expect(image.content).toContain(`here is a pixel\n\n[image 1: image/png, ${Math.floor((TEST_PNG_BASE64.length * 3) / 4)} bytes]`);
    expect(image.media).toEqual([{ kind: 'image', mimeType: 'image/png', data: TEST_PNG_BASE64 }]);
  });

  it('reaches a legacy HTTP+SSE server configured with "type": "sse"', async () => {
    const server = await startSseMcpServer();
    cleanups.push(() => server.kill());
    const env = mcpTestEnv({ legacy: { type: 'sse', url: server.url, trust: 'allow' } }, cleanups);
    await env.ready('legacy');
    expect(env.status('legacy')).toMatchObject({ transport: 'sse', target: server.url });
    expect((await env.registry.invoke('mcp__legacy__echo', { text: 'old' }, env.context)).content).toContain('echo: old');
    expect((await env.manager.readResource('legacy', 'test://readme')).text).toBe('readme of sse');
  });
});
