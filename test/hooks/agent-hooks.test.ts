import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextPayload } from '../../source/protocol/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer, RecordedRequest } from '../support/fake-llm-common.js';
import { KEY, recordEvents, route, smallWindowConfig, turn } from '../context/context-gateway.js';
import { startHooksGateway, waitUntil, writeHook, writeScript, type HooksGateway } from './hook-fixtures.js';

let gateway: HooksGateway | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = undefined;
  llm = undefined;
});

function modelConfig(server: FakeLlmServer, hooks: Record<string, unknown>): Record<string, unknown> {
  return {
    models: { providers: { fake: { api: 'openai', baseUrl: server.baseUrl, models: { m: {} } } } },
    agents: { defaults: { model: 'fake/m' } },
    hooks,
  };
}

/** The tool results the model was sent in a request, by text. */
function toolResults(request: RecordedRequest): string[] {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

function systemText(request: RecordedRequest): string {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const system = messages.find((m) => m.role === 'system' || m.role === 'developer');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
}

describe('hooks in the agent turn', () => {
  it('a tool:before command hook that exits 2 stops exec and the model gets the reason', async () => {
    llm = await startFakeOpenAI();
    const server = llm;
    let marker = '';
    gateway = await startHooksGateway({
      setup: (state) => {
        marker = join(state.dir, 'exec-ran');
        const dir = writeHook(join(state.dir, 'hooks'), 'no-exec', 'events: [tool:before]\ncommand: ./gate.sh');
        writeScript(join(dir, 'gate.sh'), '#!/bin/sh\nif grep -q \'"tool":"exec"\'; then echo "exec is frozen during the release" >&2; exit 2; fi\n');
      },
      config: modelConfig(server, { entries: { 'no-exec': { enabled: true } } }),
    });
    server.reply({ toolCalls: [{ id: 'call_1', name: 'exec', arguments: { command: `touch ${marker}` } }] }, { text: 'I could not run it.' });
    const client = await gateway.connect();
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'create the marker file' });
    await server.waitForRequests(2);
    expect(toolResults(server.requests[1]!)).toEqual([expect.stringContaining('Blocked by a hook before it ran: no-exec: exec is frozen during the release')]);
    expect(existsSync(marker)).toBe(false);
  });

  it('a slow tool:before hook times out and the tool still runs', async () => {
    llm = await startFakeOpenAI();
    const server = llm;
    gateway = await startHooksGateway({
      setup: (state) => {
        writeHook(join(state.dir, 'hooks'), 'sleepy', 'events: [tool:before]\ntimeoutMs: 200', 'export default () => new Promise(() => undefined);\n');
      },
      config: modelConfig(server, { entries: { sleepy: { enabled: true } } }),
    });
    server.reply({ toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'AGENTS.md' } }] }, { text: 'Read it.' });
    const client = await gateway.connect();
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'read AGENTS.md' });
    await server.waitForRequests(2);
    const [result] = toolResults(server.requests[1]!);
    expect(result).not.toContain('Blocked');
    expect(result).toContain(readFileSync(join(gateway.state.paths.workspace('main'), 'AGENTS.md'), 'utf8').split('\n')[0]!);
    expect(gateway.core.hooks.status().hooks[0]?.lastError?.message).toContain('took longer than 200 ms');
  });

  it('agent:bootstrap text reaches the system prompt and is counted in the context report; tool:after fires', async () => {
    llm = await startFakeOpenAI();
    const server = llm;
    let afterFile = '';
    gateway = await startHooksGateway({
      setup: (state) => {
        afterFile = join(state.dir, 'after.jsonl');
        writeHook(
          join(state.dir, 'hooks'),
          'freeze-note',
          'events: [agent:bootstrap]',
          'export default () => ({ bootstrap: "Deploy freeze until Friday: refuse production changes." });\n',
        );
        writeHook(
          join(state.dir, 'hooks'),
          'after',
          'events: [tool:after]',
          `import { appendFileSync } from 'node:fs';\nexport default (e) => appendFileSync(${JSON.stringify(join(state.dir, 'after.jsonl'))}, JSON.stringify(e.payload) + '\\n');\n`,
        );
      },
      config: modelConfig(server, { entries: { 'freeze-note': { enabled: true }, after: { enabled: true } } }),
    });
    server.reply({ toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'AGENTS.md' } }] }, { text: 'Noted.' });
    const client = await gateway.connect();
    const contexts: ContextPayload[] = [];
    client.on('context', (payload) => contexts.push(payload));
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'what is the plan?' });
    await server.waitForRequests(2);
    expect(systemText(server.requests[0]!)).toContain('Deploy freeze until Friday: refuse production changes.');
    await waitUntil(() => contexts.length > 0, 'a context event');
    const parts = JSON.stringify(contexts[contexts.length - 1]);
    expect(parts).toContain('bootstrap:hook:freeze-note');
    // /context list counts what the hook adds, as the next turn would get it.
    const { reply } = await client.request('commands.run', { sessionKey: 'agent:main:main', text: '/context list' });
    expect(reply).toContain('hook:freeze-note');
    await waitUntil(() => existsSync(afterFile), 'tool:after');
    expect(
      readFileSync(afterFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([expect.objectContaining({ tool: 'read', isError: false, sessionKey: 'agent:main:main' })]);
  });
});

describe('compaction hooks', () => {
  it('session:compact:before and :after fire once around a /compact, with the token counts', async () => {
    llm = await startFakeOpenAI();
    const server = llm;
    let turns = 0;
    const usage = [1_000, 2_000, 3_000, 4_000];
    server.setDefault(
      route({
        turn: () => ({ text: `Answer ${turns + 1}.`, usage: { input: usage[turns++] ?? 1_000, output: 10 } }),
        summary: () => ({
          text: '## Decisions\n- none\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none',
          usage: { input: 500, output: 50 },
        }),
        'identifier-retry': () => ({
          text: '## Decisions\n- none\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none',
          usage: { input: 500, output: 50 },
        }),
      }),
    );
    let file = '';
    gateway = await startHooksGateway({
      setup: (state) => {
        file = join(state.dir, 'compact.jsonl');
        writeHook(
          join(state.dir, 'hooks'),
          'compact-log',
          'events: [session:compact:before, session:compact:after]',
          `import { appendFileSync } from 'node:fs';\nexport default (e) => appendFileSync(${JSON.stringify(join(state.dir, 'compact.jsonl'))}, JSON.stringify({ event: e.event, ...e.payload }) + '\\n');\n`,
        );
      },
      config: { ...smallWindowConfig(server), hooks: { entries: { 'compact-log': { enabled: true } } } },
    });
    const client = await gateway.connect();
    const events = recordEvents(client);
    // Long enough that a summary with every required section is shorter than what it replaces.
    for (let i = 1; i <= 4; i += 1) await turn(client, events, `Message number ${i} about the deploy: ${'the rollout plan and its checks '.repeat(12)}`);
    const reply = await client.request('commands.run', { sessionKey: KEY, text: '/compact' });
    expect(JSON.stringify(reply)).not.toMatch(/fail|error/i);
    await waitUntil(() => existsSync(file) && readFileSync(file, 'utf8').includes('after'), 'session:compact:after');
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; sessionKey: string; tokensBefore?: number; tokensAfter?: number });
    expect(lines.map((l) => [l.event, l.sessionKey])).toEqual([
      ['session:compact:before', KEY],
      ['session:compact:after', KEY],
    ]);
    expect(lines[1]!.tokensAfter!).toBeLessThan(lines[1]!.tokensBefore!);
  });
});
