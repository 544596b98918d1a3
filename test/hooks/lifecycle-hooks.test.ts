import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readWebhookTokenSync } from '../../source/hooks/index.js';
import type { ChatEventPayload } from '../../source/protocol/index.js';
import { RecordingRunner, recorderHook, records, startHooksGateway, waitUntil, writeHook, writeScript, type HooksGateway } from './hook-fixtures.js';

let gateway: HooksGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const ALL_EVENTS =
  '[gateway:startup, gateway:shutdown, command:new, command:reset, command:stop, session:compact:before, session:compact:after, agent:bootstrap, message:received, message:sent, turn:start, turn:end, tool:before, tool:after]';

function post(gw: HooksGateway, path: string, body: unknown): Promise<Response> {
  const token = readWebhookTokenSync(gw.state.paths)!;
  return fetch(`${gw.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

describe('lifecycle hooks', () => {
  it('fire each event exactly once for every trigger that causes it', async () => {
    let file = '';
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      core: { runner },
      setup: (state) => {
        file = join(state.dir, 'events.jsonl');
        writeHook(join(state.dir, 'hooks'), 'recorder', `events: ${ALL_EVENTS}`, recorderHook);
      },
      config: (state) => ({
        hooks: {
          entries: { recorder: { enabled: true, env: { RECORD_FILE: join(state.dir, 'events.jsonl') } } },
          mappings: { grafana: { path: 'grafana', template: 'Alert {{title}}' } },
        },
      }),
    });
    const gw = gateway;
    // gateway:startup fires once the gateway listens, with the port it listens on.
    await waitUntil(() => records(file).length > 0, 'gateway:startup');
    expect(records(file)).toEqual([{ event: 'gateway:startup', port: Number(new URL(gw.base).port) }]);
    const client = await gw.connect();
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'from the TUI' });
    expect((await post(gw, '/hooks/agent', { message: 'from a webhook', sessionKey: 'hook:deploys' })).status).toBe(202);
    expect((await post(gw, '/hooks/wake', { text: 'woken' })).status).toBe(202);
    expect((await post(gw, '/hooks/grafana', { title: 'CPU' })).status).toBe(202);
    await waitUntil(() => records(file).filter((r) => r.event === 'message:sent').length === 4, 'four replies');
    await client.request('commands.run', { sessionKey: 'hook:deploys', text: '/new' });
    await client.request('commands.run', { sessionKey: 'hook:deploys', text: '/reset' });
    await client.request('commands.run', { sessionKey: 'hook:deploys', text: '/abort' });
    await waitUntil(() => records(file).some((r) => r.event === 'command:stop'), 'command:stop');
    const seen = records(file);
    const received = seen.filter((r) => r.event === 'message:received');
    expect(received.map((r) => [r.channel, r.sessionKey, r.text])).toEqual([
      ['tui', 'agent:main:main', 'from the TUI'],
      ['webhook', 'hook:deploys', 'from a webhook'],
      ['webhook', 'agent:main:main', 'System event from a webhook: woken'],
      ['webhook', 'hook:grafana', 'Alert CPU'],
    ]);
    for (const event of ['turn:start', 'turn:end', 'message:sent']) {
      expect(
        seen
          .filter((r) => r.event === event)
          .map((r) => r.sessionKey)
          .sort(),
        event,
      ).toEqual(['agent:main:main', 'agent:main:main', 'hook:deploys', 'hook:grafana']);
    }
    expect(seen.filter((r) => r.event.startsWith('command:')).map((r) => [r.event, r.sessionKey])).toEqual([
      ['command:new', 'hook:deploys'],
      ['command:reset', 'hook:deploys'],
      ['command:stop', 'hook:deploys'],
    ]);
    await gw.server.stop('test finished');
    expect(records(file).filter((r) => r.event === 'gateway:shutdown')).toHaveLength(1);
    expect(records(file).filter((r) => r.event === 'gateway:startup')).toHaveLength(1);
  });

  it('a message:received command hook that exits 2 drops the message by policy and tells the sender', async () => {
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      core: { runner },
      setup: (state) => {
        const dir = writeHook(join(state.dir, 'hooks'), 'no-secrets', 'events: [message:received]\ncommand: ./check.sh');
        writeScript(join(dir, 'check.sh'), '#!/bin/sh\nif grep -q "password" ; then echo "messages must not contain passwords" >&2; exit 2; fi\nexit 0\n');
      },
      config: { hooks: { entries: { 'no-secrets': { enabled: true } } } },
    });
    const gw = gateway;
    const client = await gw.connect();
    const errors: ChatEventPayload[] = [];
    client.on('chat', (payload) => {
      if (payload.state === 'error') errors.push(payload);
    });
    const refused = await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'my password is hunter2' });
    expect(refused.status).toBe('dropped');
    await waitUntil(() => errors.length === 1, 'the chat error');
    expect(errors[0]).toMatchObject({ runId: refused.runId, message: 'Dropped by policy: no-secrets: messages must not contain passwords' });
    const journal = readFileSync(join(gw.state.dir, 'queue', 'inbound.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { t: string; status?: string; reason?: string });
    expect(journal.filter((r) => r.t === 'outcome')).toEqual([
      expect.objectContaining({ status: 'dropped', reason: 'Dropped by policy: no-secrets: messages must not contain passwords' }),
    ]);
    const hook = await post(gw, '/hooks/agent', { message: 'the password is swordfish' });
    expect(hook.status).toBe(403);
    expect(((await hook.json()) as { error: string }).error).toContain('messages must not contain passwords');
    const fine = await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hello' });
    expect(fine.status).not.toBe('dropped');
    await waitUntil(() => runner.turns.length === 1, 'the allowed turn');
    expect(runner.turns.map((t) => t.texts)).toEqual([['hello']]);
  });

  it('a hook that throws or hangs is recorded and never stops the message; a hook process gets a clean environment', async () => {
    const runner = new RecordingRunner();
    let envFile = '';
    gateway = await startHooksGateway({
      core: { runner, hooks: { parentEnv: { ...process.env, OPENAI_API_KEY: 'sk-must-not-leak-1234', CLAW_GATEWAY_TOKEN: 'gateway-token-must-not-leak' } } },
      setup: (state) => {
        envFile = join(state.dir, 'hook-data', 'env-dump', 'env.txt');
        writeHook(join(state.dir, 'hooks'), 'thrower', 'events: [message:received]', 'export default () => { throw new Error("the hook broke"); };\n');
        writeHook(join(state.dir, 'hooks'), 'sleeper', 'events: [message:received]\ntimeoutMs: 300', 'export default () => new Promise(() => undefined);\n');
        writeHook(join(state.dir, 'hooks'), 'env-dump', 'events: [message:received]\ncommand: env > "$CLAW_HOOK_DATA/env.txt"');
      },
      config: {
        hooks: {
          entries: {
            thrower: { enabled: true },
            sleeper: { enabled: true },
            'env-dump': { enabled: true, env: { GITHUB_TOKEN: 'listed-for-this-hook' } },
          },
        },
      },
    });
    const gw = gateway;
    const client = await gw.connect();
    const started = Date.now();
    const sent = await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'still goes through' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(sent.status).not.toBe('dropped');
    await waitUntil(() => runner.turns.length === 1, 'the turn');
    const status = gw.core.hooks.status().hooks;
    expect(status.find((h) => h.name === 'thrower')?.lastError?.message).toBe('the hook broke');
    expect(status.find((h) => h.name === 'sleeper')?.lastError?.message).toContain('took longer than 300 ms');
    const env = readFileSync(envFile, 'utf8');
    expect(env).toContain('GITHUB_TOKEN=listed-for-this-hook');
    expect(env).toContain('CLAW_HOOK_NAME=env-dump');
    expect(env).not.toContain('sk-must-not-leak');
    expect(env).not.toContain('gateway-token-must-not-leak');
    expect(env).not.toContain(gw.gatewayToken);
  });

  it('only enabled user hooks run, and a hook whose requirements are unmet is listed with the reason', async () => {
    gateway = await startHooksGateway({
      setup: (state) => {
        writeHook(
          join(state.dir, 'hooks'),
          'not-enabled',
          'events: [message:received]',
          'export default () => ({ block: true, reason: "should never run" });\n',
        );
        writeHook(
          join(state.dir, 'hooks'),
          'needs-bin',
          'events: [message:received]\nrequires:\n  bins: [definitely-not-installed-xyz]\n  env: [SOME_KEY]',
          'export default () => ({ block: true, reason: "should never run" });\n',
        );
      },
      config: { hooks: { entries: { 'needs-bin': { enabled: true } } } },
    });
    const client = await gateway.connect();
    expect((await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hi' })).status).not.toBe('dropped');
    // Nothing that may run listens, so the accept path does not wait on hooks at all.
    expect(gateway.core.lifecycle.has('message:received')).toBe(false);
    const status = gateway.core.hooks.status().hooks;
    expect(status.find((h) => h.name === 'not-enabled')).toMatchObject({ enabled: false, runs: 0 });
    expect(status.find((h) => h.name === 'needs-bin')).toMatchObject({
      enabled: true,
      runs: 0,
      unmet: ['needs "definitely-not-installed-xyz" on PATH', 'needs SOME_KEY: set it in hooks.entries.needs-bin.env'],
    });
  });

  it('the bundled session-memory hook saves the conversation before /new, and can be disabled', async () => {
    const bundledDir = join(import.meta.dirname, '..', '..', 'hooks');
    for (const enabled of [true, false]) {
      gateway = await startHooksGateway({
        core: { runner: new RecordingRunner() },
        bundledDir,
        config: enabled ? {} : { hooks: { entries: { 'session-memory': { enabled: false } } } },
      });
      const gw = gateway;
      const client = await gw.connect();
      await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'Plan the Lisbon offsite for April' });
      await waitUntil(
        () => gw.core.sessions.registry.get('agent:main:main') !== undefined && gw.core.lanes.laneInfo('agent:main:main').running === false,
        'the turn',
      );
      await new Promise((r) => setTimeout(r, 50));
      await client.request('commands.run', { sessionKey: 'agent:main:main', text: '/new' });
      const memoryDir = join(gw.state.paths.workspace('main'), 'memory');
      const notes = existsSync(memoryDir) ? readdirSync(memoryDir).filter((name) => name.endsWith('.md')) : [];
      if (enabled) {
        expect(notes).toHaveLength(1);
        expect(notes[0]).toMatch(/^\d{4}-\d{2}-\d{2}-plan-the-lisbon-offsite-for\.md$/);
        expect(readFileSync(join(memoryDir, notes[0]!), 'utf8')).toContain('done: Plan the Lisbon offsite for April');
      } else {
        expect(notes).toEqual([]);
      }
      await gw.stop();
      gateway = undefined;
    }
  });
});
